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
 * pigeonhole filter: it never drops a true match). The pieces are looked for with indexOf over all
 * names joined into one string, and serials likewise; only the fields holding one are scored: an
 * exact occurrence by indexOf, else the fewest edits by Myers' bit-vector algorithm, then Fuse's
 * score formula (field norm, key weights). fleet-search.test.ts checks the answers against plain
 * Fuse on random fleets and queries.
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
}

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
  return { hay, starts, norms: new Float64Array(n), raw, sliced };
}

/** Fuse leaves blank values out of its index. */
const isBlank = (f: Field, i: number) => !f.raw[i]!.trim().length;

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

/** Marks (1) the values of a field that contain any of the pieces; answers how many. */
function markHits(f: Field, pieces: readonly string[], marks: Uint8Array): number {
  let count = 0;
  const { hay, starts } = f;
  const n = starts.length - 1;
  for (const p of pieces) {
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
    for (let i = 0; i < p.length; i++) peq[p.charCodeAt(i)]! |= 1 << i;
    return { pattern: p, k: maxErrors(p.length), peq };
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

/** Fuse's BitapSearch.searchIn over the lower-cased text[from, to): its score when it matches (0 for the whole text), else -1. */
function searchIn(text: string, from: number, to: number, pattern: string, chunks: readonly Chunk[]): number {
  if (to - from === pattern.length && text.startsWith(pattern, from)) return 0;
  let total = 0;
  let hasMatches = false;
  for (const c of chunks) {
    // Fuse scores errors / length, at least 0.001; a chunk that does not match scores 1
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
    for (let f = 0; f < 2; f++) {
      marks[f]!.fill(0);
      if (pieces) markHits(fields[f]!, pieces, marks[f]!);
      else for (let i = 0; i < n; i++) marks[f]![i] = isBlank(fields[f]!, i) ? 0 : 1;
    }
    // Fuse sorts by score, then by position; the scores take few values, so the hits go into one bucket per score, in position order
    const buckets = new Map<number, number[]>();
    const pows = new Map<number, Map<number, number>>();
    const pow = (score: number, norm: number) => {
      let byNorm = pows.get(score);
      if (!byNorm) pows.set(score, (byNorm = new Map()));
      let v = byNorm.get(norm);
      if (v === undefined) byNorm.set(norm, (v = Math.pow(score === 0 ? Number.EPSILON : score, WEIGHT * norm)));
      return v;
    };
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
        const score = !exact ? searchIn(text, from, to, pattern, chunks) : to - from === pattern.length && text.startsWith(pattern, from) ? 0 : field.sliced || text.includes(pattern) ? 0.001 : -1;
        if (score < 0) continue;
        matched = true;
        total *= pow(score, normOf(field, i));
      }
      if (!matched) continue;
      const b = buckets.get(total);
      if (b) b.push(i);
      else buckets.set(total, [i]);
    }
    released(chunks);
    const out: number[] = [];
    for (const score of [...buckets.keys()].sort((a, b) => a - b)) for (const i of buckets.get(score)!) out.push(i);
    return out;
  };
  return Object.assign(search, { warm: () => void (fields ??= [fieldOf(items.map((s) => s.name)), fieldOf(items.map((s) => s.serial))]) });
}
