import { SEARCH_THRESHOLD } from './sensor-search';

/**
 * The sensor search at a fleet's size (monitoring-client 5: fuzzy over name and serial, threshold
 * 0.2): the same answers as `new Fuse(items, { keys: ['name', 'serial'], threshold: 0.2,
 * ignoreLocation: true }).search(q)` (Fuse 7), the same items in the same order, without scoring
 * every sensor.
 *
 * Fuse's bitap matches the lower-cased query against any part of a field with at most k edits,
 * where k is the largest count with k / length <= 0.2 (0 up to 4 characters, 1 up to 9, ...), and
 * scores a match k / length. Split into k + 1 pieces, a query within k edits of a text leaves at
 * least one piece untouched, so a field holding none of the pieces exactly cannot match (the
 * pigeonhole filter: it never drops a true match). A piece of three characters or more marks the
 * fields holding its rarest trigram (a trigram index built with the fields); a shorter one, or
 * every piece when no edit is allowed, is looked for with indexOf over all names joined into one
 * string, and serials likewise; a one-letter query reads each field's set of characters. Each
 * character of a chunk that a field lacks altogether costs an edit, so a field lacking more than k
 * of them is not scored either (the character sets: 64 buckets, a to z, digits and the space one
 * each). The fields left are scored: an exact occurrence by indexOf, else the fewest edits by
 * Myers' bit-vector algorithm, then Fuse's score formula (field norm, key weights). Every filter
 * keeps a superset of the true matches; fleet-search.test.ts checks the answers against plain Fuse
 * on random fleets and queries.
 *
 * Non-features that keep it fast: none of Fuse's other options (location, extended or token
 * search, weights, match indices). A query longer than 32 characters is cut into Fuse's
 * 32-character chunks, each filtered by its own pieces.
 */

const SEP = '\u0000';
const MAX_BITS = 32;
const WEIGHT = 0.5; // Fuse normalises the two keys' weights to 1/2 each

interface Field {
  /** The values lower-cased (Fuse compares lower-cased), each followed by SEP. */
  hay: string;
  /** Where each value starts in hay; one more entry for the end. */
  starts: Int32Array;
  /** Fuse's field norm of each value (0 until first needed). */
  norms: Float64Array;
  raw: readonly string[];
  /** Whether hay holds each value's lower case as is (else lowerOf lower-cases the value itself). */
  sliced: boolean;
  /** The values holding each trigram's bucket, in value order: postings[offsets[b], offsets[b + 1]). */
  grams: { bits: number; offsets: Int32Array; postings: Int32Array };
  /** 1 for a value that is blank once trimmed (Fuse leaves it out). */
  blank: Uint8Array;
  /** The character buckets (BUCKET) each value holds: buckets 0-31 in lo, 32-63 in hi. */
  lo: Int32Array;
  hi: Int32Array;
}

/**
 * 64 buckets of characters: a to z, 0 to 9 and the space one each, any other character one of the
 * 27 others by its code. A value lacking a bucket lacks every character in it.
 */
const BUCKET = new Uint8Array(65536).map((_, c) => (c >= 97 && c <= 122 ? c - 97 : c >= 48 && c <= 57 ? c - 22 : c === 32 ? 36 : 37 + (c % 27)));
/** Whether a character is alone in its bucket. */
const aloneInBucket = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 32;

function fieldOf(values: readonly string[]): Field {
  const n = values.length;
  const raw = values.map((v) => (typeof v === 'string' ? v : ''));
  const starts = new Int32Array(n + 1);
  const joined = raw.join(SEP) + SEP;
  // one toLowerCase over the joined values equals each value's own (SEP is neither cased nor case-ignorable,
  // so a final sigma reads the same) unless a letter changes length when lower-cased, or a value holds SEP
  let hay = joined.toLowerCase();
  const sliced = hay.length === joined.length && !raw.some((v) => v.includes(SEP));
  const lower = sliced ? raw : raw.map((v) => v.toLowerCase().replaceAll(SEP, ' '));
  let at = 0;
  for (let i = 0; i < n; i++) {
    starts[i] = at;
    at += lower[i]!.length + 1;
  }
  starts[n] = at;
  if (!sliced) hay = lower.join(SEP) + SEP;
  return { hay, starts, norms: new Float64Array(n), raw, sliced, blank: blanks(raw), ...gramIndex(hay, starts) };
}

/** A trigram's key: the low 7 bits of its three characters (other characters share them: a bucket's values are a superset). */
const GRAM_MASK = (1 << 21) - 1;
/** Buckets of the trigram index: 2^8 for a handful of values up to 2^16 from 16,384 values. */
const gramBits = (n: number) => Math.min(16, Math.max(8, Math.ceil(Math.log2(n * 4))));
const gramBucket = (key: number, bits: number) => Math.imul(key, 0x9e3779b1) >>> (32 - bits);
/** The bucket of the trigram at text[j]. */
const gramAt = (text: string, j: number, bits: number) =>
  gramBucket(((text.charCodeAt(j) & 0x7f) << 14) | ((text.charCodeAt(j + 1) & 0x7f) << 7) | (text.charCodeAt(j + 2) & 0x7f), bits);

/**
 * Each trigram bucket's values, each value once, in value order; and each value's character
 * buckets. One pass along the values (the key rolls) notes each value's buckets; the postings are
 * filled from the notes.
 */
function gramIndex(hay: string, starts: Int32Array): Pick<Field, 'grams' | 'lo' | 'hi'> {
  const n = starts.length - 1;
  const bits = gramBits(n);
  const size = 1 << bits;
  const offsets = new Int32Array(size + 1);
  const last = new Int32Array(size).fill(-1);
  const lo = new Int32Array(n);
  const hi = new Int32Array(n);
  // value i's buckets are notes[ends[i - 1], ends[i])
  const notes = new Uint16Array(hay.length);
  const ends = new Int32Array(n);
  let noted = 0;
  for (let i = 0; i < n; i++) {
    const end = starts[i + 1]! - 1;
    let key = 0;
    let l = 0;
    let h = 0;
    for (let j = starts[i]!, seen = 0; j < end; j++, seen++) {
      const c = hay.charCodeAt(j);
      const cb = BUCKET[c]!;
      if (cb < 32) l |= 1 << cb;
      else h |= 1 << (cb - 32);
      key = ((key << 7) | (c & 0x7f)) & GRAM_MASK;
      if (seen < 2) continue;
      const b = gramBucket(key, bits);
      if (last[b] !== i) {
        last[b] = i;
        offsets[b + 1]!++;
        notes[noted++] = b;
      }
    }
    lo[i] = l;
    hi[i] = h;
    ends[i] = noted;
  }
  for (let b = 0; b < size; b++) offsets[b + 1]! += offsets[b]!;
  const postings = new Int32Array(offsets[size]!);
  const fill = offsets.slice(0, size);
  for (let i = 0, k = 0; i < n; i++) for (; k < ends[i]!; k++) postings[fill[notes[k]!]!++] = i;
  return { grams: { bits, offsets, postings }, lo, hi };
}

/** 1 for each value that is blank once trimmed. */
function blanks(raw: readonly string[]) {
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) if (!raw[i]!.trim().length) out[i] = 1;
  return out;
}

/** Fuse leaves blank values out of its index. */
const isBlank = (f: Field, i: number) => f.blank[i] === 1;

/** Fuse's field norm: 1 / sqrt(number of words), rounded to 3 decimals. */
function normOf(f: Field, i: number): number {
  if (f.norms[i]) return f.norms[i]!;
  const v = f.raw[i]!;
  let tokens = 0;
  let inWord = false;
  for (let k = 0; k < v.length; k++) {
    const c = v.charCodeAt(k);
    if (!((c >= 9 && c <= 13) || c === 32 || c === 160)) {
      if (!inWord) tokens++;
      inWord = true;
    } else inWord = false;
  }
  if (tokens === 0) tokens = 1;
  return (f.norms[i] = Math.round(1000 / Math.pow(tokens, 0.5)) / 1000);
}

/**
 * Marks (1) the values of a field that may contain any of the pieces (a superset of those that do,
 * when `exact` is false); answers how many. A piece of three characters or more marks the values
 * holding its rarest trigram's bucket, from the index; a shorter one, or any when `exact`, the
 * values it occurs in, found with indexOf over the joined values.
 */
function markHits(f: Field, pieces: readonly string[], marks: Uint8Array, exact: boolean): number {
  let count = 0;
  const { hay, starts } = f;
  const n = starts.length - 1;
  const { bits, offsets, postings } = f.grams;
  for (const p of pieces) {
    if (!exact && p.length >= 3) {
      let best = -1;
      for (let j = 0; j + 3 <= p.length; j++) {
        const b = gramAt(p, j, bits);
        if (best < 0 || offsets[b + 1]! - offsets[b]! < offsets[best + 1]! - offsets[best]!) best = b;
      }
      for (let k = offsets[best]!, end = offsets[best + 1]!; k < end; k++) {
        const i = postings[k]!;
        if (!marks[i] && !isBlank(f, i)) {
          marks[i] = 1;
          count++;
        }
      }
      continue;
    }
    let pos = hay.indexOf(p);
    while (pos >= 0) {
      // the value holding pos: the last start <= pos
      let lo = 0;
      let hi = n - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= pos) lo = mid;
        else hi = mid - 1;
      }
      if (!marks[lo] && !isBlank(f, lo)) {
        marks[lo] = 1;
        count++;
      }
      pos = hay.indexOf(p, starts[lo + 1]!);
    }
  }
  return count;
}

/** Marks (1) the values holding a character bucket (the field's hay holding the values as they are). */
function markBucket(f: Field, bucket: number, marks: Uint8Array) {
  const masks = bucket < 32 ? f.lo : f.hi;
  const bit = 1 << (bucket & 31);
  for (let i = 0; i < masks.length; i++) if (masks[i]! & bit && !isBlank(f, i)) marks[i] = 1;
}

/** The most edits Fuse allows a pattern of length m at the threshold (its own comparison, errors / m <= threshold). */
function maxErrors(m: number): number {
  let k = 0;
  while (k + 1 < m && (k + 1) / m <= SEARCH_THRESHOLD) k++;
  return k;
}

/** A chunk split into k + 1 pieces as even as can be. */
function piecesOf(chunk: string, k: number): string[] {
  const out: string[] = [];
  const parts = k + 1;
  for (let i = 0; i < parts; i++) out.push(chunk.slice(Math.floor((i * chunk.length) / parts), Math.floor(((i + 1) * chunk.length) / parts)));
  return out;
}

interface Chunk {
  pattern: string;
  /** The most edits a match may have. */
  k: number;
  /** The chunk's character buckets (as Field's lo and hi) and how many of its characters fall in each. */
  lo: number;
  hi: number;
  counts: Int32Array;
  /** Bit masks of the chunk's characters by UTF-16 code (Myers' Peq). */
  peq: Int32Array;
}

const peqPool: Int32Array[] = [];

/** Clears the chunks' tables for the next query. */
function released(chunks: readonly Chunk[]) {
  for (const c of chunks) for (let i = 0; i < c.pattern.length; i++) c.peq[c.pattern.charCodeAt(i)] = 0;
}

function chunksOf(pattern: string): Chunk[] {
  let used = 0;
  const mk = (p: string): Chunk => {
    // the tables are reused from query to query (released() clears the entries set)
    const peq = (peqPool[used++] ??= new Int32Array(65536));
    const counts = new Int32Array(64);
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < p.length; i++) {
      const c = p.charCodeAt(i);
      peq[c]! |= 1 << i;
      const b = BUCKET[c]!;
      counts[b]!++;
      if (b < 32) lo |= 1 << b;
      else hi |= 1 << (b - 32);
    }
    return { pattern: p, k: maxErrors(p.length), peq, lo, hi, counts };
  };
  const len = pattern.length;
  if (len <= MAX_BITS) return [mk(pattern)];
  const out: Chunk[] = [];
  const remainder = len % MAX_BITS;
  for (let i = 0; i < len - remainder; i += MAX_BITS) out.push(mk(pattern.substr(i, MAX_BITS)));
  if (remainder) out.push(mk(pattern.substr(len - MAX_BITS)));
  return out;
}

/**
 * The fewest edits that turn the chunk into some part of text[from, to) (Myers' bit-vector
 * algorithm in Hyyrö's form, one pass, stopping at 0). Fuse's bitap finds the same count level by
 * level, and scores a match errors / length (fleet-search.test.ts checks the two agree).
 */
function fewestEdits(text: string, from: number, to: number, c: Chunk): number {
  const { peq } = c;
  const m = c.pattern.length;
  const last = 1 << (m - 1);
  let pv = -1;
  let mv = 0;
  let score = m;
  let best = m;
  for (let j = from; j < to && best > 0; j++) {
    const eq = peq[text.charCodeAt(j)]!;
    const xv = eq | mv;
    const xh = ((((eq & pv) + pv) | 0) ^ pv) | eq;
    let ph = mv | ~(xh | pv);
    let mh = pv & xh;
    if (ph & last) score++;
    else if (mh & last) score--;
    if (score < best) best = score;
    ph <<= 1;
    mh <<= 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
  }
  return best;
}

/**
 * Whether the value (its buckets lo, hi) lacks more of the chunk's characters than the chunk's
 * edits allow: each character of the chunk whose bucket the value lacks takes an edit, so the
 * chunk cannot be within k edits of any part of it.
 */
function tooFar(c: Chunk, lo: number, hi: number): boolean {
  let missing = 0;
  let x = c.lo & ~lo;
  while (x) {
    const b = 31 - Math.clz32(x);
    missing += c.counts[b]!;
    if (missing > c.k) return true;
    x ^= 1 << b;
  }
  x = c.hi & ~hi;
  while (x) {
    const b = 31 - Math.clz32(x);
    missing += c.counts[b + 32]!;
    if (missing > c.k) return true;
    x ^= 1 << b;
  }
  return false;
}

/** Fuse's BitapSearch.searchIn over the lower-cased text[from, to): its score when it matches (0 for the whole text), else -1. */
function searchIn(text: string, from: number, to: number, pattern: string, chunks: readonly Chunk[], bag: Field | null, i: number): number {
  if (to - from === pattern.length && text.startsWith(pattern, from)) return 0;
  let total = 0;
  let hasMatches = false;
  for (const c of chunks) {
    // Fuse scores errors / length, at least 0.001; a chunk that does not match scores 1
    if (bag && tooFar(c, bag.lo[i]!, bag.hi[i]!)) {
      total += 1;
      continue;
    }
    const d = fewestEdits(text, from, to, c);
    if (d <= c.k) {
      hasMatches = true;
      total += Math.max(0.001, d / c.pattern.length);
    } else total += 1;
  }
  return hasMatches ? total / chunks.length : -1;
}

/** A search over a fleet; `warm` builds its index ahead of the first query. */
export type FleetSearch = ((query: string) => number[] | null) & { warm: () => void };

/**
 * The data worker's search over a whole fleet: the positions (in the given order) of the items
 * matching a query, best first as Fuse ranks them, or null for a trimmed empty query (all of them).
 */
export function createFleetSearch<T extends { name: string; serial: string }>(items: readonly T[]): FleetSearch {
  const n = items.length;
  let fields: Field[] | null = null;
  const marks = [new Uint8Array(n), new Uint8Array(n)];
  const search = (query: string): number[] | null => {
    const q = query.trim();
    if (!q) return null;
    // built on the first search, so the first rows wait for nothing (the worker warms it once the list is shown)
    fields ??= [fieldOf(items.map((s) => s.name)), fieldOf(items.map((s) => s.serial))];
    const pattern = q.toLowerCase();
    const chunks = chunksOf(pattern);
    // a query holding SEP (never typed) has every value scored in full
    const pieces = pattern.includes(SEP) ? null : chunks.flatMap((c) => piecesOf(c.pattern, c.k));
    const exact = pieces !== null && chunks.length === 1 && chunks[0]!.k === 0;
    // one character alone in its bucket: the values holding it are those with its bucket
    const single = exact && pattern.length === 1 && aloneInBucket(pattern.charCodeAt(0)) ? BUCKET[pattern.charCodeAt(0)]! : -1;
    for (let f = 0; f < 2; f++) {
      marks[f]!.fill(0);
      if (single >= 0 && fields[f]!.sliced) markBucket(fields[f]!, single, marks[f]!);
      else if (pieces) markHits(fields[f]!, pieces, marks[f]!, exact);
      else for (let i = 0; i < n; i++) marks[f]![i] = isBlank(fields[f]!, i) ? 0 : 1;
    }
    // Fuse sorts by score, then by position; the scores take few values, so the hits go into one bucket per score, in position order
    const buckets = new Map<number, number[]>();
    const pows = new Map<number, Map<number, number>>();
    // the same score and norm come in runs: the last one's power is kept at hand
    let lastScore = NaN;
    let lastNorm = NaN;
    let lastPow = NaN;
    const pow = (score: number, norm: number) => {
      if (score === lastScore && norm === lastNorm) return lastPow;
      lastScore = score;
      lastNorm = norm;
      let byNorm = pows.get(score);
      if (!byNorm) pows.set(score, (byNorm = new Map()));
      let v = byNorm.get(norm);
      if (v === undefined) byNorm.set(norm, (v = Math.pow(score === 0 ? Number.EPSILON : score, WEIGHT * norm)));
      return (lastPow = v);
    };
    let lastTotal = NaN;
    let lastBucket: number[] = [];
    for (let i = 0; i < n; i++) {
      if (!marks[0]![i] && !marks[1]![i]) continue;
      let total = 1;
      let matched = false;
      for (let f = 0; f < 2; f++) {
        if (!marks[f]![i]) continue;
        const field = fields[f]!;
        // the value as Fuse compares it: text[from, to)
        let text = field.hay;
        let from = field.starts[i]!;
        let to = field.starts[i + 1]! - 1;
        if (!field.sliced) [text, from, to] = [field.raw[i]!.toLowerCase(), 0, field.raw[i]!.toLowerCase().length];
        // up to 4 characters a match is an exact occurrence, which the filter found where the hay holds the values as they are:
        // Fuse scores it 0.001, or 0 for the whole text
        const score = !exact ? searchIn(text, from, to, pattern, chunks, field.sliced ? field : null, i) : to - from === pattern.length && text.startsWith(pattern, from) ? 0 : field.sliced || text.includes(pattern) ? 0.001 : -1;
        if (score < 0) continue;
        matched = true;
        total *= pow(score, normOf(field, i));
      }
      if (!matched) continue;
      if (total !== lastTotal) {
        lastTotal = total;
        const b = buckets.get(total);
        if (b) lastBucket = b;
        else buckets.set(total, (lastBucket = []));
      }
      lastBucket.push(i);
    }
    released(chunks);
    const out: number[] = [];
    for (const score of [...buckets.keys()].sort((a, b) => a - b)) for (const i of buckets.get(score)!) out.push(i);
    return out;
  };
  return Object.assign(search, { warm: () => void (fields ??= [fieldOf(items.map((s) => s.name)), fieldOf(items.map((s) => s.serial))]) });
}
