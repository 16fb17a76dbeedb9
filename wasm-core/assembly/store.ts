// The per-sensor column store: a sorted list of non-overlapping segments, each a run of
// (time f64, value f32) columns in its own pair of buffers. A chunk that does not overlap
// what is held becomes a segment as it is, without a copy (the store takes ownership of the
// buffers JavaScript wrote it into); only overlapping parts are merged. Small segments are
// folded into a neighbour, so live appends stay amortised O(1) and segments stay few.
import { sortChunk, strictlyAscending } from './sort';
import { lowerBound } from './search';

// Store header: segs (usize), count (i32), cap (i32), total (i32).
// Segment record: tb (usize), vb (usize), off (i32), len (i32), cap (i32), pad.
const REC: usize = 24;
/** Segments shorter than this are folded into a neighbour. */
const SMALL: i32 = 4096;

// @ts-ignore: decorator
@inline export function segCount(s: usize): i32 {
  return load<i32>(s, 4);
}
// @ts-ignore: decorator
@inline export function rec(s: usize, i: i32): usize {
  return load<usize>(s) + <usize>i * REC;
}
// @ts-ignore: decorator
@inline export function recT(r: usize): usize {
  return load<usize>(r) + (<usize>load<i32>(r, 8) << 3);
}
// @ts-ignore: decorator
@inline export function recV(r: usize): usize {
  return load<usize>(r, 4) + (<usize>load<i32>(r, 8) << 2);
}
// @ts-ignore: decorator
@inline export function recLen(r: usize): i32 {
  return load<i32>(r, 12);
}
// @ts-ignore: decorator
@inline function firstTime(r: usize): f64 {
  return load<f64>(recT(r));
}
// @ts-ignore: decorator
@inline function lastTime(r: usize): f64 {
  return load<f64>(recT(r) + (<usize>(recLen(r) - 1) << 3));
}

function setRec(r: usize, tb: usize, vb: usize, off: i32, len: i32, cap: i32): void {
  store<usize>(r, tb);
  store<usize>(r, vb, 4);
  store<i32>(r, off, 8);
  store<i32>(r, len, 12);
  store<i32>(r, cap, 16);
}

function freeRec(r: usize): void {
  heap.free(load<usize>(r));
  heap.free(load<usize>(r, 4));
}

export function storeNew(): usize {
  const s = heap.alloc(16);
  store<usize>(s, heap.alloc(8 * REC));
  store<i32>(s, 0, 4);
  store<i32>(s, 8, 8);
  store<i32>(s, 0, 12);
  return s;
}

export function storeFree(s: usize): void {
  const n = segCount(s);
  for (let i = 0; i < n; i++) freeRec(rec(s, i));
  heap.free(load<usize>(s));
  heap.free(s);
}

export function storeLength(s: usize): i32 {
  return load<i32>(s, 12);
}

export function storeSegments(s: usize): i32 {
  return segCount(s);
}

/** Opens `k` empty records at position `at`. */
function openRecords(s: usize, at: i32, k: i32): void {
  const n = segCount(s);
  let cap = load<i32>(s, 8);
  if (n + k > cap) {
    while (n + k > cap) cap <<= 1;
    store<usize>(s, heap.realloc(load<usize>(s), <usize>cap * REC));
    store<i32>(s, cap, 8);
  }
  const base = load<usize>(s);
  memory.copy(base + <usize>(at + k) * REC, base + <usize>at * REC, <usize>(n - at) * REC);
  store<i32>(s, n + k, 4);
}

function closeRecords(s: usize, at: i32, k: i32): void {
  const n = segCount(s);
  const base = load<usize>(s);
  memory.copy(base + <usize>at * REC, base + <usize>(at + k) * REC, <usize>(n - at - k) * REC);
  store<i32>(s, n - k, 4);
}

/** First local index in the segment whose time is >= t (upper: > t). */
export function segLowerBound(r: usize, t: f64, upper: bool): i32 {
  return lowerBound(recT(r), recLen(r), t, upper);
}

/** First segment whose last time is >= t. */
export function segFirstEndingAtOrAfter(s: usize, t: f64): i32 {
  let lo = 0;
  let hi = segCount(s);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (lastTime(rec(s, mid)) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First segment whose first time is > t. */
function segFirstStartingAfter(s: usize, t: f64): i32 {
  let lo = 0;
  let hi = segCount(s);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (firstTime(rec(s, mid)) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Number of points held with time < t (upper: <= t). */
export function storeBound(s: usize, t: f64, upper: bool): i32 {
  const n = segCount(s);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const r = rec(s, i);
    if (lastTime(r) < t || (upper && lastTime(r) == t)) {
      count += recLen(r);
      continue;
    }
    return count + segLowerBound(r, t, upper);
  }
  return count;
}

export function storeLowerBound(s: usize, t: f64): i32 {
  return storeBound(s, t, false);
}

export function storeUpperBound(s: usize, t: f64): i32 {
  return storeBound(s, t, true);
}

// Where a global index lies: set by locate().
export let locSeg: i32 = 0;
export let locIdx: i32 = 0;

export function locate(s: usize, g: i32): void {
  const n = segCount(s);
  let i = 0;
  while (i < n && g >= recLen(rec(s, i))) {
    g -= recLen(rec(s, i));
    i++;
  }
  locSeg = i;
  locIdx = g;
}

/** Copies points [from, from + count) of the store out to (outT f64, outV f32). */
export function storeRead(s: usize, from: i32, count: i32, outT: usize, outV: usize): i32 {
  locate(s, from);
  let seg = locSeg;
  let i = locIdx;
  let w = 0;
  const n = segCount(s);
  while (w < count && seg < n) {
    const r = rec(s, seg);
    const k = min(recLen(r) - i, count - w);
    memory.copy(outT + (<usize>w << 3), recT(r) + (<usize>i << 3), <usize>k << 3);
    memory.copy(outV + (<usize>w << 2), recV(r) + (<usize>i << 2), <usize>k << 2);
    w += k;
    seg++;
    i = 0;
  }
  return w;
}

/** First index p' >= p in the sorted chunk with t[p'] >= x (galloping: overlaps are short). */
function gallopGE(t: usize, p: i32, n: i32, x: f64): i32 {
  let step = 1;
  let lo = p;
  let hi = p;
  while (hi < n && load<f64>(t + (<usize>hi << 3)) < x) {
    lo = hi + 1;
    hi += step;
    step <<= 1;
  }
  if (hi > n) hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (load<f64>(t + (<usize>mid << 3)) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Copies [from, from + k) of a segment into fresh buffers of capacity k; returns them in scratch. */
function copyOut(r: usize, from: i32, k: i32, dst: usize): void {
  const tb = heap.alloc(<usize>k << 3);
  const vb = heap.alloc(<usize>k << 2);
  memory.copy(tb, recT(r) + (<usize>from << 3), <usize>k << 3);
  memory.copy(vb, recV(r) + (<usize>from << 2), <usize>k << 2);
  setRec(dst, tb, vb, 0, k, k);
}

let scratch: usize = 0; // room for three records

/**
 * Merges a chunk into the store and returns the number of points held. The store takes
 * ownership of the chunk's buffers (time f64 and value f32, `n` points, from alloc). On equal
 * times the chunk wins (and within a chunk, the later point): a later answer replaces an earlier one.
 */
export function storeMerge(s: usize, ct: usize, cv: usize, n: i32): i32 {
  if (scratch == 0) scratch = heap.alloc(3 * REC);
  // A chunk is almost always one strictly ascending run (a server page). It is merged as if it
  // were, and the merge proves it on the way (see mergeSpan); if it was not, nothing has changed
  // yet, and it is sorted first.
  if (n >= 2 && load<f64>(ct) < load<f64>(ct + (<usize>(n - 1) << 3))) {
    const held = mergeIn(s, ct, cv, n, true);
    if (held >= 0) return held;
  }
  n = sortChunk(ct, cv, n);
  if (n == 0) {
    heap.free(ct);
    heap.free(cv);
    return storeLength(s);
  }
  return mergeIn(s, ct, cv, n, false);
}

/**
 * storeMerge for a chunk that is sorted, strictly ascending, or, when `verify`, may not be:
 * then it returns -1, having changed nothing, unless the chunk proves strictly ascending.
 */
function mergeIn(s: usize, ct: usize, cv: usize, n: i32, verify: bool): i32 {
  const c0 = load<f64>(ct);
  const c1 = load<f64>(ct + (<usize>(n - 1) << 3));
  const lo = segFirstEndingAtOrAfter(s, c0);
  const hiEx = segFirstStartingAfter(s, c1);
  if (lo >= hiEx) {
    // No overlap: the chunk becomes a segment as it is.
    if (verify && !strictlyAscending(ct, n)) return -1;
    openRecords(s, lo, 1);
    setRec(rec(s, lo), ct, cv, 0, n, n);
    store<i32>(s, storeLength(s) + n, 12);
    coalesce(s, lo, lo + 2);
    return storeLength(s);
  }
  const last = hiEx - 1;
  const a = segLowerBound(rec(s, lo), c0, false);
  const b = segLowerBound(rec(s, last), c1, true);

  // The held points inside [c0, c1]: how many, and are they all repeated by the chunk?
  let k = 0;
  let allDup = true;
  let p = 0;
  for (let i = lo; i <= last; i++) {
    const r = rec(s, i);
    const from = i == lo ? a : 0;
    const to = i == last ? b : recLen(r);
    k += to - from;
    if (!allDup) continue;
    const tp = recT(r);
    for (let j = from; j < to; j++) {
      const x = load<f64>(tp + (<usize>j << 3));
      p = gallopGE(ct, p, n, x);
      if (p == n || load<f64>(ct + (<usize>p << 3)) != x) {
        allDup = false;
        break;
      }
    }
  }

  if (allDup && verify && !strictlyAscending(ct, n)) return -1;
  let nt = ct;
  let nv = cv;
  let nlen = n;
  let ncap = n;
  const rl = rec(s, lo);
  const rh = rec(s, last);
  let headLen = a;
  let tailLen = recLen(rh) - b;
  if (!allDup) {
    // A held head or tail shorter than SMALL left beside the new run would be folded into it
    // later (a copy of the whole run): it goes into the new run's buffers now instead.
    const ha = headLen < SMALL ? headLen : 0;
    const ta = tailLen < SMALL ? tailLen : 0;
    ncap = ha + n + k + ta;
    nt = heap.alloc(<usize>ncap << 3);
    nv = heap.alloc(<usize>ncap << 2);
    if (ha > 0) {
      memory.copy(nt, recT(rl), <usize>ha << 3);
      memory.copy(nv, recV(rl), <usize>ha << 2);
    }
    const w = mergeSpan(s, lo, last, a, b, ct, cv, n, nt + (<usize>ha << 3), nv + (<usize>ha << 2), verify);
    if (w < 0) {
      heap.free(nt);
      heap.free(nv);
      return -1;
    }
    nlen = ha + w;
    if (ta > 0) {
      memory.copy(nt + (<usize>nlen << 3), recT(rh) + (<usize>b << 3), <usize>ta << 3);
      memory.copy(nv + (<usize>nlen << 2), recV(rh) + (<usize>b << 2), <usize>ta << 2);
      nlen += ta;
    }
    heap.free(ct);
    heap.free(cv);
    k += ha + ta;
    headLen -= ha;
    tailLen -= ta;
  }
  store<i32>(s, storeLength(s) - k + nlen, 12);

  // What replaces segments [lo, last]: the kept head of lo, the new run, the kept tail of last.
  let m = 0;
  if (lo == last && headLen > 0 && tailLen > 0) {
    // The chunk lands inside one segment: its head and tail cannot share a buffer, so the
    // smaller side moves to buffers of its own.
    if (tailLen <= headLen) {
      setRec(scratch, load<usize>(rl), load<usize>(rl, 4), load<i32>(rl, 8), headLen, load<i32>(rl, 16));
      setRec(scratch + REC, nt, nv, 0, nlen, ncap);
      copyOut(rl, b, tailLen, scratch + 2 * REC);
    } else {
      copyOut(rl, 0, headLen, scratch);
      setRec(scratch + REC, nt, nv, 0, nlen, ncap);
      setRec(scratch + 2 * REC, load<usize>(rl), load<usize>(rl, 4), load<i32>(rl, 8) + b, tailLen, load<i32>(rl, 16));
    }
    m = 3;
  } else {
    if (headLen > 0) {
      setRec(scratch, load<usize>(rl), load<usize>(rl, 4), load<i32>(rl, 8), headLen, load<i32>(rl, 16));
      m++;
    } else if (lo != last || tailLen == 0) freeRec(rl);
    setRec(scratch + <usize>m * REC, nt, nv, 0, nlen, ncap);
    m++;
    if (tailLen > 0) {
      setRec(scratch + <usize>m * REC, load<usize>(rh), load<usize>(rh, 4), load<i32>(rh, 8) + b, tailLen, load<i32>(rh, 16));
      m++;
    } else if (lo != last) freeRec(rh);
    for (let i = lo + 1; i < last; i++) freeRec(rec(s, i));
  }
  const replaced = last - lo + 1;
  if (m > replaced) openRecords(s, lo, m - replaced);
  else if (m < replaced) closeRecords(s, lo, replaced - m);
  memory.copy(rec(s, lo), scratch, <usize>m * REC);
  coalesce(s, lo, lo + m + 1);
  return storeLength(s);
}

/**
 * Merges the held points of segments lo..last inside [c0, c1] with the chunk; the chunk wins ties.
 * Each point moves once: stretches where one side runs ahead go by memory.copy, and where the two
 * interleave, merge2 zips or merges them. With `verify`, returns -1 unless the chunk is strictly
 * ascending: the stretches it copies are checked here (with the pair across each boundary), and
 * merge2 checks what it does not prove by zipping.
 */
function mergeSpan(s: usize, lo: i32, last: i32, a: i32, b: i32, ct: usize, cv: usize, n: i32, nt: usize, nv: usize, verify: bool): i32 {
  let p = 0;
  let w = 0;
  for (let seg = lo; seg <= last; seg++) {
    const r = rec(s, seg);
    const T = recT(r);
    const V = recV(r);
    const j = seg == lo ? a : 0;
    const end = seg == last ? b : recLen(r);
    if (j >= end) continue;
    // chunk points before this run, then the chunk points up to the run's last time (ties included)
    const q = gallopGE(ct, p, n, load<f64>(T + (<usize>j << 3)));
    if (q > p) {
      if (verify && !ascendingFrom(ct, p, q)) return -1;
      memory.copy(nt + (<usize>w << 3), ct + (<usize>p << 3), <usize>(q - p) << 3);
      memory.copy(nv + (<usize>w << 2), cv + (<usize>p << 2), <usize>(q - p) << 2);
      w += q - p;
      p = q;
    }
    const tLast = load<f64>(T + (<usize>(end - 1) << 3));
    let pe = gallopGE(ct, p, n, tLast);
    if (pe < n && load<f64>(ct + (<usize>pe << 3)) == tLast) pe++;
    if (verify && pe > p && p > 0 && !(load<f64>(ct + (<usize>(p - 1) << 3)) < load<f64>(ct + (<usize>p << 3)))) return -1;
    const m = merge2(T + (<usize>j << 3), V + (<usize>j << 2), end - j, ct + (<usize>p << 3), cv + (<usize>p << 2), pe - p, nt + (<usize>w << 3), nv + (<usize>w << 2), verify);
    if (m < 0) return -1;
    w += m;
    p = pe;
  }
  if (p < n) {
    if (verify && !ascendingFrom(ct, p, n)) return -1;
    memory.copy(nt + (<usize>w << 3), ct + (<usize>p << 3), <usize>(n - p) << 3);
    memory.copy(nv + (<usize>w << 2), cv + (<usize>p << 2), <usize>(n - p) << 2);
    w += n - p;
  }
  return w;
}

/** True when times [from, to) are strictly ascending, and above the one before `from`, if any. */
function ascendingFrom(t: usize, from: i32, to: i32): bool {
  const f = from > 0 ? from - 1 : 0;
  return strictlyAscending(t + (<usize>f << 3), to - f);
}

/** First index in [lo, hi) of the sorted times at t whose time is >= x. */
function lowerIn(t: usize, lo: i32, hi: i32, x: f64): i32 {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (load<f64>(t + (<usize>mid << 3)) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Finishes one part of a merge: steps while both sides last, then copies the rest. Returns the
 * end of output. `kh` and `kc` turn a time address of the held or the chunk side into the address
 * of its value (value = (time >> 1) + k: the value columns are 4 bytes a point where times are 8),
 * and `ko` does the same for the output.
 */
function finish2(pa: usize, ea: usize, pb: usize, eb: usize, po: usize, kh: usize, kc: usize, ko: usize): usize {
  while (pa < ea && pb < eb) {
    const x = load<f64>(pa);
    const y = load<f64>(pb);
    const h = x < y;
    store<i64>(po, select<i64>(load<i64>(pa), load<i64>(pb), h));
    store<f32>((po >> 1) + ko, load<f32>((select<usize>(pa, pb, h) >> 1) + select<usize>(kh, kc, h)));
    pa += <usize>(<i32>(x <= y)) << 3;
    pb += <usize>(<i32>h ^ 1) << 3;
    po += 8;
  }
  if (pa < ea) {
    memory.copy(po, pa, ea - pa);
    memory.copy((po >> 1) + ko, (pa >> 1) + kh, (ea - pa) >> 1);
    po += ea - pa;
  }
  if (pb < eb) {
    memory.copy(po, pb, eb - pb);
    memory.copy((po >> 1) + ko, (pb >> 1) + kc, (eb - pb) >> 1);
    po += eb - pb;
  }
  return po;
}

/**
 * Merges sorted held points (na) with sorted chunk points (nb); the chunk wins ties. Returns the
 * count written. Where the two sides alternate point by point (each side's next point falls
 * between two of the other's: chunks of one sensor whose overlap interleaves), the merge zips
 * blocks of 8 + 8 points by vector shuffles after 8 vector comparisons prove the alternation;
 * a block that does not alternate (a tie, or a run of two from one side) takes `STEPS` scalar
 * merge steps and the zip is tried again. When the zip keeps failing the rest goes to merge4.
 */
function merge2(at: usize, av: usize, na: i32, bt: usize, bv: usize, nb: i32, ot: usize, ov: usize, verify: bool): i32 {
  // value address = (time address >> 1) + k, per column (every column is 8-byte aligned)
  const kh = av - (at >> 1);
  const kc = bv - (bt >> 1);
  const ko = ov - (ot >> 1);
  const ea = at + (<usize>na << 3);
  const eb = bt + (<usize>nb << 3);
  let pa = at;
  let pb = bt;
  let po = ot;
  let fails = 0;
  // chunk times from `owed` on are not yet proven ascending (with `verify`); a zipped stretch
  // proves its own chunk times ascending, so only the times between stretches are checked
  let owed = bt;
  while (true) {
    const zipped = po;
    while (true) {
      // blocks where the held side leads, then where the chunk leads (8 bytes an f64 time, a
      // block is 8 of each: 64 bytes a side; the lead side needs a 9th time)
      let z = pb;
      const k = zip(pa, kh, pb, kc, po, ko, <i32>min((<isize>(ea - pa) - 8) >> 6, <isize>(eb - pb) >> 6));
      pa += <usize>k << 6;
      pb += <usize>k << 6;
      po += <usize>k << 7;
      if (verify && k > 0) {
        if (!strictlyAscending(owed, <i32>((z - owed) >> 3) + 1)) return -1;
        owed = pb - 8;
      }
      z = pb;
      const k2 = zip(pb, kc, pa, kh, po, ko, <i32>min((<isize>(eb - pb) - 8) >> 6, <isize>(ea - pa) >> 6));
      pa += <usize>k2 << 6;
      pb += <usize>k2 << 6;
      po += <usize>k2 << 7;
      if (verify && k2 > 0) {
        if (!strictlyAscending(owed, <i32>((z - owed) >> 3) + 1)) return -1;
        owed = pb - 8;
      }
      if (k + k2 == 0) break;
    }
    if (pa + 72 > ea || pb + 72 > eb) break;
    // the zip gave less than a block's worth of steps before failing twice: the sides do not alternate
    if (po - zipped < <usize>STEPS << 3) fails++;
    else fails = 0;
    if (fails >= 2) {
      if (verify && !strictlyAscending(owed, <i32>((eb - owed) >> 3))) return -1;
      return <i32>((merge4(pa, ea, pb, eb, po, kh, kc, ko) - ot) >> 3);
    }
    // scalar steps past what did not alternate
    const end = po + (<usize>STEPS << 3);
    while (po < end && pa < ea && pb < eb) {
      const x = load<f64>(pa);
      const y = load<f64>(pb);
      const h = x < y;
      store<i64>(po, select<i64>(load<i64>(pa), load<i64>(pb), h));
      store<f32>((po >> 1) + ko, load<f32>((select<usize>(pa, pb, h) >> 1) + select<usize>(kh, kc, h)));
      pa += <usize>(<i32>(x <= y)) << 3;
      pb += <usize>(<i32>h ^ 1) << 3;
      po += 8;
    }
  }
  if (verify && !strictlyAscending(owed, <i32>((eb - owed) >> 3))) return -1;
  return <i32>((finish2(pa, ea, pb, eb, po, kh, kc, ko) - ot) >> 3);
}

/**
 * Writes blocks of 8 + 8 points, at most `max`, while side l leads side q strictly point by
 * point (l0 < q0 < l1 < q1 < ... < l7 < q7 < l8: four vector comparisons of l against q and
 * four of q against l loaded one time on), interleaving them by shuffles. Returns the number
 * of blocks written. A tie never zips (the chunk must win it: the scalar step does).
 * `kl`, `kq`, `ko`: value address = (time address >> 1) + k, as in merge2.
 */
function zip(pl: usize, kl: usize, pq: usize, kq: usize, po: usize, ko: usize, max: i32): i32 {
  let vl = (pl >> 1) + kl;
  let vq = (pq >> 1) + kq;
  let vo = (po >> 1) + ko;
  let i = 0;
  for (; i < max; i++) {
    const l0 = v128.load(pl);
    const l1 = v128.load(pl, 16);
    const l2 = v128.load(pl, 32);
    const l3 = v128.load(pl, 48);
    const q0 = v128.load(pq);
    const q1 = v128.load(pq, 16);
    const q2 = v128.load(pq, 32);
    const q3 = v128.load(pq, 48);
    const c0 = v128.and(f64x2.lt(l0, q0), f64x2.lt(q0, v128.load(pl, 8)));
    const c1 = v128.and(f64x2.lt(l1, q1), f64x2.lt(q1, v128.load(pl, 24)));
    const c2 = v128.and(f64x2.lt(l2, q2), f64x2.lt(q2, v128.load(pl, 40)));
    const c3 = v128.and(f64x2.lt(l3, q3), f64x2.lt(q3, v128.load(pl, 56)));
    if (!i64x2.all_true(v128.and(v128.and(c0, c1), v128.and(c2, c3)))) break;
    v128.store(po, v128.shuffle<i64>(l0, q0, 0, 2));
    v128.store(po, v128.shuffle<i64>(l0, q0, 1, 3), 16);
    v128.store(po, v128.shuffle<i64>(l1, q1, 0, 2), 32);
    v128.store(po, v128.shuffle<i64>(l1, q1, 1, 3), 48);
    v128.store(po, v128.shuffle<i64>(l2, q2, 0, 2), 64);
    v128.store(po, v128.shuffle<i64>(l2, q2, 1, 3), 80);
    v128.store(po, v128.shuffle<i64>(l3, q3, 0, 2), 96);
    v128.store(po, v128.shuffle<i64>(l3, q3, 1, 3), 112);
    const wl0 = v128.load(vl);
    const wl1 = v128.load(vl, 16);
    const wq0 = v128.load(vq);
    const wq1 = v128.load(vq, 16);
    v128.store(vo, v128.shuffle<i32>(wl0, wq0, 0, 4, 1, 5));
    v128.store(vo, v128.shuffle<i32>(wl0, wq0, 2, 6, 3, 7), 16);
    v128.store(vo, v128.shuffle<i32>(wl1, wq1, 0, 4, 1, 5), 32);
    v128.store(vo, v128.shuffle<i32>(wl1, wq1, 2, 6, 3, 7), 48);
    pl += 64;
    pq += 64;
    po += 128;
    vl += 32;
    vq += 32;
    vo += 64;
  }
  return i;
}

/** Scalar merge steps taken past a block that does not alternate, before the zip is tried again. */
const STEPS: i32 = 16;

/**
 * Merges sorted held points [at, ea) with sorted chunk points [bt, eb) into ot; the chunk wins
 * ties. Returns the end of output. A merge step waits on the step before it (which side advanced decides the next
 * load), so one merge runs at the latency of load, compare and add. Two merges do not wait on
 * each other: the output is split at the chunk's middle time (and where it falls among the held
 * times), and the parts advance together, one step each per turn: four parts, split at the
 * chunk's quarter times.
 *
 * A step is branch-free and works on addresses, not indices: the time written is the smaller
 * time itself (a select, no second load), its value's address is derived from the time address
 * taken (the value columns are the time columns' addresses halved plus a constant per column),
 * and the side that gave the point advances by 8 bytes (the held side on a tie too, which drops
 * its point). Every part writes one point per turn, so their outputs stay a constant distance
 * apart and share one output address.
 */
function merge4(at: usize, ea: usize, bt: usize, eb: usize, ot: usize, kh: usize, kc: usize, ko: usize): usize {
  const na = <i32>((ea - at) >> 3);
  const nb = <i32>((eb - bt) >> 3);
  if (na + nb < 1024 || nb < 16) return finish2(at, ea, bt, eb, ot, kh, kc, ko);
  // four parts: part i holds chunk [b_i, b_i+1) and the held points from where chunk time b_i
  // falls among them (held points at a part's first chunk time fall in that part and lose the tie)
  const b1 = nb >> 2;
  const b2 = nb >> 1;
  const b3 = b1 + b2;
  const a1 = lowerIn(at, 0, na, load<f64>(bt + (<usize>b1 << 3)));
  const a2 = lowerIn(at, a1, na, load<f64>(bt + (<usize>b2 << 3)));
  const a3 = lowerIn(at, a2, na, load<f64>(bt + (<usize>b3 << 3)));
  const ma1 = at + (<usize>a1 << 3);
  const ma2 = at + (<usize>a2 << 3);
  const ma3 = at + (<usize>a3 << 3);
  const mb1 = bt + (<usize>b1 << 3);
  const mb2 = bt + (<usize>b2 << 3);
  const mb3 = bt + (<usize>b3 << 3);
  let pa0 = at;
  let pb0 = bt;
  let pa1 = ma1;
  let pb1 = mb1;
  let pa2 = ma2;
  let pb2 = mb2;
  let pa3 = ma3;
  let pb3 = mb3;
  // each part may write as much as both its sides hold: part i writes g_i bytes after part 0
  const g1 = <usize>(a1 + b1) << 3;
  const g2 = <usize>(a2 + b2) << 3;
  const g3 = <usize>(a3 + b3) << 3;
  let po = ot;
  while (true) {
    // steps all parts can take without running out of either side
    const m = min(min(min(ma1 - pa0, mb1 - pb0), min(ma2 - pa1, mb2 - pb1)), min(min(ma3 - pa2, mb3 - pb2), min(ea - pa3, eb - pb3)));
    if (m == 0) break;
    const end = po + m;
    do {
      const x0 = load<f64>(pa0);
      const y0 = load<f64>(pb0);
      const x1 = load<f64>(pa1);
      const y1 = load<f64>(pb1);
      const x2 = load<f64>(pa2);
      const y2 = load<f64>(pb2);
      const x3 = load<f64>(pa3);
      const y3 = load<f64>(pb3);
      const h0 = x0 < y0;
      const h1 = x1 < y1;
      const h2 = x2 < y2;
      const h3 = x3 < y3;
      store<i64>(po, select<i64>(load<i64>(pa0), load<i64>(pb0), h0));
      store<i64>(po + g1, select<i64>(load<i64>(pa1), load<i64>(pb1), h1));
      store<i64>(po + g2, select<i64>(load<i64>(pa2), load<i64>(pb2), h2));
      store<i64>(po + g3, select<i64>(load<i64>(pa3), load<i64>(pb3), h3));
      const pv = (po >> 1) + ko;
      store<f32>(pv, load<f32>((select<usize>(pa0, pb0, h0) >> 1) + select<usize>(kh, kc, h0)));
      store<f32>(pv + (g1 >> 1), load<f32>((select<usize>(pa1, pb1, h1) >> 1) + select<usize>(kh, kc, h1)));
      store<f32>(pv + (g2 >> 1), load<f32>((select<usize>(pa2, pb2, h2) >> 1) + select<usize>(kh, kc, h2)));
      store<f32>(pv + (g3 >> 1), load<f32>((select<usize>(pa3, pb3, h3) >> 1) + select<usize>(kh, kc, h3)));
      pa0 += <usize>(<i32>(x0 <= y0)) << 3;
      pb0 += <usize>(<i32>h0 ^ 1) << 3;
      pa1 += <usize>(<i32>(x1 <= y1)) << 3;
      pb1 += <usize>(<i32>h1 ^ 1) << 3;
      pa2 += <usize>(<i32>(x2 <= y2)) << 3;
      pb2 += <usize>(<i32>h2 ^ 1) << 3;
      pa3 += <usize>(<i32>(x3 <= y3)) << 3;
      pb3 += <usize>(<i32>h3 ^ 1) << 3;
      po += 8;
    } while (po < end);
  }
  // each part finishes alone, then moves up against the one before it (ties wrote less than
  // the room kept; nothing moves when there were none)
  let w = finish2(pa0, ma1, pb0, mb1, po, kh, kc, ko);
  w = closeUp(w, ot + g1, finish2(pa1, ma2, pb1, mb2, po + g1, kh, kc, ko), ko);
  w = closeUp(w, ot + g2, finish2(pa2, ma3, pb2, mb3, po + g2, kh, kc, ko), ko);
  w = closeUp(w, ot + g3, finish2(pa3, ea, pb3, eb, po + g3, kh, kc, ko), ko);
  return w;
}

/** Moves output [from, to) (times, and their values at (address >> 1) + ko) down to w; returns its new end. */
function closeUp(w: usize, from: usize, to: usize, ko: usize): usize {
  if (w != from) {
    memory.copy(w, from, to - from);
    memory.copy((w >> 1) + ko, (from >> 1) + ko, (to - from) >> 1);
  }
  return w + (to - from);
}

/** Appends segment `src` to segment `dst` (adjacent in time), growing dst's buffers. */
function appendInto(dst: usize, src: usize): void {
  const off = load<i32>(dst, 8);
  const len = recLen(dst);
  const add = recLen(src);
  let cap = load<i32>(dst, 16);
  if (off + len + add > cap) {
    cap = max(len + add + ((len + add) >> 1), 64);
    let tb = load<usize>(dst);
    let vb = load<usize>(dst, 4);
    if (off == 0) {
      tb = heap.realloc(tb, <usize>cap << 3);
      vb = heap.realloc(vb, <usize>cap << 2);
    } else {
      const nt = heap.alloc(<usize>cap << 3);
      const nv = heap.alloc(<usize>cap << 2);
      memory.copy(nt, recT(dst), <usize>len << 3);
      memory.copy(nv, recV(dst), <usize>len << 2);
      heap.free(tb);
      heap.free(vb);
      tb = nt;
      vb = nv;
    }
    setRec(dst, tb, vb, 0, len, cap);
  }
  memory.copy(recT(dst) + (<usize>len << 3), recT(src), <usize>add << 3);
  memory.copy(recV(dst) + (<usize>len << 2), recV(src), <usize>add << 2);
  store<i32>(dst, len + add, 12);
}

/** Folds small segments in [from, to) into their left neighbour. */
function coalesce(s: usize, from: i32, to: i32): void {
  let j = max(from, 1);
  while (j < min(to, segCount(s))) {
    const left = rec(s, j - 1);
    const right = rec(s, j);
    if (recLen(right) < SMALL || recLen(left) < SMALL) {
      appendInto(left, right);
      freeRec(right);
      closeRecords(s, j, 1);
      to--;
    } else j++;
  }
}
