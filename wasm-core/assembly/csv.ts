// CSV rows of the full-resolution store: "<time>,<value>\r\n" per point, time formatted in the
// organisation's zone from an offset table the JavaScript side computes (luxon), value converted
// and written with a fixed number of decimals. Digits are written straight into linear memory.
import { civilDate, civilDay, civilMonth, civilYear, d2 } from './civil';
import { convertValue, jsRound } from './convert';
import { locIdx, locSeg, locate, rec, recLen, recT, recV, segCount } from './store';

export const FMT_DEFAULT = 0; // YYYY-MM-DD HH:mm:ss (local)
export const FMT_DMY = 1; // DD/MM/YYYY HH:mm:ss (local)
export const FMT_ISO_LOCAL = 2; // YYYY-MM-DDTHH:mm:ss+HH:MM
export const FMT_ISO_UTC = 3; // YYYY-MM-DDTHH:mm:ssZ
/** No row is longer than this many bytes (25 date + 1 + 28 number + 2). */
export const CSV_ROW_MAX = 64;

// Offset table: from tzT[i] (UTC epoch ms) on, local time is UTC + tzO[i] ms.
let tzT: usize = 0;
let tzO: usize = 0;
let tzN: i32 = 0;

export function setTimeZone(tp: usize, op: usize, n: i32): void {
  tzT = tp;
  tzO = op;
  tzN = n;
}

/** Index of the offset in force at t: the last entry at or before t (entry 0 covers earlier times). */
function zoneIndex(t: f64): i32 {
  let lo = 0;
  let hi = tzN;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (load<f64>(tzT + (<usize>mid << 3)) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? lo - 1 : 0;
}

// The civil date of the last day written (rows are sorted, so it changes once a day).
let cachedDay: i32 = i32.MIN_VALUE;
let dayStart: f64 = NaN; // local epoch ms of the start of that day
let cY: i32 = 0;
let cM: i32 = 0;
let cD: i32 = 0;

/** Civil date of days since 1970-01-01 into cY, cM, cD, kept while the day stays the same. */
function civil(days: i32): void {
  if (days == cachedDay) return;
  cachedDay = days;
  const p = civilDate(days);
  cY = civilYear(p);
  cM = civilMonth(p);
  cD = civilDay(p);
}

/** Writes the date of local epoch ms `lt` (UTC ms + offset) in format fmt. */
function writeDate(w: usize, lt: f64, fmt: i32, off: f64): usize {
  // Rows are sorted: while in the same local day, the second of the day is one subtraction and
  // a 32-bit division by a constant. Exact for integer milliseconds:
  // floor(floor(lt / 1000) / 86400) == floor(lt / 86400000).
  let inDay = lt - dayStart;
  if (!(inDay >= 0 && inDay < 86400000.0)) {
    const dayF = Math.floor(lt / 86400000.0);
    dayStart = dayF * 86400000.0;
    inDay = lt - dayStart;
    civil(<i32>dayF);
  }
  const sod = <i32>inDay / 1000;
  const d = cD;
  const m = cM;
  const yy = ((cY % 10000) + 10000) % 10000;
  if (fmt == FMT_DMY) {
    w = d2(w, d);
    store<u8>(w++, 47);
    w = d2(w, m);
    store<u8>(w++, 47);
    w = d2(w, yy / 100);
    w = d2(w, yy % 100);
  } else {
    w = d2(w, yy / 100);
    w = d2(w, yy % 100);
    store<u8>(w++, 45);
    w = d2(w, m);
    store<u8>(w++, 45);
    w = d2(w, d);
  }
  store<u8>(w++, fmt == FMT_ISO_LOCAL || fmt == FMT_ISO_UTC ? 84 : 32);
  w = d2(w, sod / 3600);
  store<u8>(w++, 58);
  w = d2(w, (sod / 60) % 60);
  store<u8>(w++, 58);
  w = d2(w, sod % 60);
  if (fmt == FMT_ISO_UTC) {
    store<u8>(w++, 90);
  } else if (fmt == FMT_ISO_LOCAL) {
    const mins = <i32>(Math.abs(off) / 60000.0);
    store<u8>(w++, off < 0 ? 45 : 43);
    w = d2(w, mins / 60);
    store<u8>(w++, 58);
    w = d2(w, mins % 60);
  }
  return w;
}

let digitBuf: usize = 0;

/**
 * Writes v with `dec` decimals (Math.round rule on |v|·10^dec); non-finite or huge: an empty cell.
 * The rounded integer's digits are written once, with the point put in before the last `dec`
 * (32-bit arithmetic by constants when it fits: 64-bit division is slow in WebAssembly engines).
 */
export function writeNumber(w: usize, v: f64, dec: i32): usize {
  if (!isFinite(v)) return w;
  if (digitBuf == 0) digitBuf = heap.alloc(32);
  let p = 1.0;
  for (let i = 0; i < dec; i++) p *= 10.0;
  const neg = v < 0;
  const scaled = (neg ? -v : v) * p;
  if (!(scaled < 9.0e18)) return w;
  const rf = jsRound(scaled);
  if (neg && rf != 0) store<u8>(w++, 45);
  let k = 0;
  if (rf < 4294967296.0) {
    let r = <u32>rf;
    do {
      store<u8>(digitBuf + <usize>k, <u8>(48 + r % 10));
      k++;
      r /= 10;
    } while (r != 0);
  } else {
    let r = <u64>rf;
    do {
      store<u8>(digitBuf + <usize>k, <u8>(48 + <i32>(r % 10)));
      k++;
      r /= 10;
    } while (r != 0);
  }
  while (k <= dec) {
    store<u8>(digitBuf + <usize>k, 48);
    k++;
  }
  for (let i = k - 1; i >= dec; i--) store<u8>(w++, load<u8>(digitBuf + <usize>i));
  if (dec > 0) {
    store<u8>(w++, 46);
    for (let i = dec - 1; i >= 0; i--) store<u8>(w++, load<u8>(digitBuf + <usize>i));
  }
  return w;
}

/**
 * Writes rows [from, from + count) of the store to `out` (room: count * CSV_ROW_MAX bytes) and
 * returns the number of bytes written. Values go through the conversion set by setConversion.
 */
export function csvRows(s: usize, from: i32, count: i32, fmt: i32, decimals: i32, out: usize): i32 {
  locate(s, from);
  let seg = locSeg;
  let i = locIdx;
  const nseg = segCount(s);
  let w = out;
  let left = count;
  let k = -1;
  while (left > 0 && seg < nseg) {
    const r = rec(s, seg);
    const tp = recT(r);
    const vp = recV(r);
    const len = recLen(r);
    for (; i < len && left > 0; i++, left--) {
      const t = load<f64>(tp + (<usize>i << 3));
      let off = 0.0;
      if (fmt != FMT_ISO_UTC && tzN > 0) {
        if (k < 0) k = zoneIndex(t);
        while (k + 1 < tzN && load<f64>(tzT + (<usize>(k + 1) << 3)) <= t) k++;
        off = load<f64>(tzO + (<usize>k << 3));
      }
      w = writeDate(w, t + off, fmt, off);
      store<u8>(w++, 44);
      w = writeNumber(w, convertValue(<f64>load<f32>(vp + (<usize>i << 2))), decimals);
      store<u16>(w, 0x0a0d);
      w += 2;
    }
    seg++;
    i = 0;
  }
  return <i32>(w - out);
}

/** The offset (ms) in force at t by the table set with setTimeZone (0 without one). */
function offsetAt(t: f64): f64 {
  return tzN > 0 ? load<f64>(tzO + (<usize>zoneIndex(t) << 3)) : 0.0;
}

/** Writes the local date YYYY-MM-DD of UTC ms t. */
function writeDay(w: usize, t: f64): usize {
  dayStart = NaN; // writeDate's day is no longer the one in cY, cM, cD
  civil(<i32>Math.floor((t + offsetAt(t)) / 86400000.0));
  const yy = ((cY % 10000) + 10000) % 10000;
  w = d2(w, yy / 100);
  w = d2(w, yy % 100);
  store<u8>(w++, 45);
  w = d2(w, cM);
  store<u8>(w++, 45);
  return d2(w, cD);
}

/**
 * Usage CSV rows (issue 38), one a day: "date,use,covered hours,fills,filled" for a tank (4 f64 a
 * day: litres, ms, count, litres; litres with 0 decimals) or "date,total,covered hours" for a flow
 * (2 f64 a day: m³ with 3 decimals, ms). The date is the local date of the day's start bound
 * (bounds: nd + 1 UTC ms). Returns the bytes written (room: nd * CSV_ROW_MAX).
 */
export function usageDayRows(days: usize, bounds: usize, nd: i32, stride: i32, out: usize): i32 {
  let w = out;
  for (let d = 0; d < nd; d++) {
    const o = days + (<usize>(d * stride) << 3);
    w = writeDay(w, load<f64>(bounds + (<usize>d << 3)));
    store<u8>(w++, 44);
    w = writeNumber(w, load<f64>(o), stride == 4 ? 0 : 3);
    store<u8>(w++, 44);
    w = writeNumber(w, load<f64>(o, 8) / 3600000.0, 1);
    if (stride == 4) {
      store<u8>(w++, 44);
      w = writeNumber(w, load<f64>(o, 16), 0);
      store<u8>(w++, 44);
      w = writeNumber(w, load<f64>(o, 24), 0);
    }
    store<u16>(w, 0x0a0d);
    w += 2;
  }
  return <i32>(w - out);
}

/**
 * Fill rows "start,end,volume" (5 f64 a fill: start, end, volume, before, after), times in the
 * export format `fmt` and the zone set, the volume in litres with 0 decimals (room: n * 2 * CSV_ROW_MAX).
 */
export function usageFillRows(fills: usize, n: i32, fmt: i32, out: usize): i32 {
  let w = out;
  for (let i = 0; i < n; i++) {
    const o = fills + (<usize>(i * 5) << 3);
    for (let k = 0; k < 2; k++) {
      const t = load<f64>(o + (<usize>k << 3));
      const off = fmt == FMT_ISO_UTC ? 0.0 : offsetAt(t);
      w = writeDate(w, t + off, fmt, off);
      store<u8>(w++, 44);
    }
    w = writeNumber(w, load<f64>(o, 16), 0);
    store<u16>(w, 0x0a0d);
    w += 2;
  }
  return <i32>(w - out);
}
