// Meter-reading exports (organisation-and-routes 3, 7.3; DESIGN.md "Organisation, user settings
// and service routes"): the council results file (17 pipe-separated positions, CRLF) and the
// readings CSV (all readings or exceptions only), written straight into linear memory.
//
// Input, packed by wasm-core/council-file.ts (the layout is described there):
//   text: per reading, TEXT_FIELDS UTF-8 fields, each ended by a 0 byte
//   nums: per reading, NUM_FIELDS f64 (NaN stands for "none")
//   zone: offset table (from zt[i] UTC ms on, local = UTC + zo[i] ms), as the chart CSV uses
import { civilDate, civilDay, civilMonth, civilYear, d2 } from './civil';
import { writeNumber } from './csv';

export const TEXT_FIELDS = 13;
const T_ROUTE = 0;
const T_VALUATION = 1;
const T_OZONE = 2;
const T_ADDRESS = 3;
const T_OWNER = 4;
const T_CANT_READ = 5;
const T_COMMENT = 6;
const T_NOTES = 7;
const T_SERIAL = 8;
const T_LOCATION = 9;
const T_ADDITIONAL = 10;
const T_RECORDER = 11;
const T_EXCEPTION = 12;

export const NUM_FIELDS = 8;
const N_SEQUENCE = 0;
const N_VALUE = 1;
const N_RECORDED_AT = 2;
const N_PREVIOUS = 3;
const N_LATITUDE = 4;
const N_LONGITUDE = 5;
const N_TASK_NUMBER = 6;
const N_FLAGS = 7; // bit 0 completed, bit 1 service required

const F_COMPLETED = 1;
const F_SERVICE = 2;
const F_EXCEPTION = 4; // an exception other than none (the text field holds its display name)

/** Start of each text field of the current reading (filled by scanRow). */
const fieldStart = new StaticArray<i32>(TEXT_FIELDS);
const fieldLen = new StaticArray<i32>(TEXT_FIELDS);

/** Reads one reading's fields starting at p; returns the start of the next reading. */
function scanRow(text: usize, p: i32): i32 {
  for (let f = 0; f < TEXT_FIELDS; f++) {
    const s = p;
    while (load<u8>(text + <usize>p) != 0) p++;
    unchecked((fieldStart[f] = s));
    unchecked((fieldLen[f] = p - s));
    p++;
  }
  return p;
}

// @ts-ignore: decorator
@inline function fStart(text: usize, f: i32): usize {
  return text + <usize>unchecked(fieldStart[f]);
}

// @ts-ignore: decorator
@inline function fLen(f: i32): i32 {
  return unchecked(fieldLen[f]);
}

// @ts-ignore: decorator
@inline function num(nums: usize, row: i32, f: i32): f64 {
  return load<f64>(nums + ((<usize>row * NUM_FIELDS + <usize>f) << 3));
}

/** Unsigned integer digits. */
function writeUint(w: usize, x: u32): usize {
  let n = 1;
  for (let y = x; y >= 10; y /= 10) n++;
  let e = w + <usize>n;
  do {
    store<u8>(--e, <u8>(48 + x % 10));
    x /= 10;
  } while (x != 0);
  return w + <usize>n;
}

/** Offset (ms) in force at UTC t: the last entry at or before t (entry 0 covers earlier times). */
function offsetAt(zt: usize, zo: usize, zn: i32, t: f64): f64 {
  if (zn <= 0) return 0;
  let lo = 0;
  let hi = zn;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (load<f64>(zt + (<usize>mid << 3)) <= t) lo = mid + 1;
    else hi = mid;
  }
  const k: i32 = lo > 0 ? lo - 1 : 0;
  return load<f64>(zo + (<usize>k << 3));
}

let cY: i32 = 0;
let cM: i32 = 0;
let cD: i32 = 0;
let cSod: i32 = 0;

/** Civil date and second of day of local epoch ms lt. */
function civilOf(lt: f64): void {
  const dayF = Math.floor(lt / 86400000.0);
  cSod = <i32>((lt - dayF * 86400000.0) / 1000.0);
  const p = civilDate(<i32>dayF);
  cY = civilYear(p);
  cM = civilMonth(p);
  cD = civilDay(p);
}

/** A valid reading: an integer from 0 to 9,999,999 (section 5); anything else is blank. */
// @ts-ignore: decorator
@inline function isReading(v: f64): bool {
  return v >= 0 && v <= 9999999 && v == Math.floor(v);
}

/**
 * Copies a field for the pipe-separated file: '|' and every character a line reader may split on
 * (C0 controls, DEL, the C1 controls U+0080 to U+009F with NEL, U+2028 and U+2029) become one
 * space each; nothing else changes (a machine import: no CSV-style quote prefix). The text is
 * valid UTF-8, so C2 80..9F and E2 80 A8/A9 are exactly those characters. Answers the end.
 */
function copyPlain(w: usize, src: usize, len: i32): usize {
  let i = 0;
  while (i < len) {
    const b = load<u8>(src + <usize>i);
    if (b == 0xc2 && i + 1 < len && load<u8>(src + <usize>(i + 1)) < 0xa0) {
      store<u8>(w++, 32);
      i += 2;
    } else if (b == 0xe2 && i + 2 < len && load<u8>(src + <usize>(i + 1)) == 0x80 && (load<u8>(src + <usize>(i + 2)) & 0xfe) == 0xa8) {
      store<u8>(w++, 32);
      i += 3;
    } else {
      store<u8>(w++, b == 124 || b < 32 || b == 127 ? 32 : b);
      i++;
    }
  }
  return w;
}

/**
 * A CSV text cell: OWASP CSV injection (a cell beginning with = + - @ tab or CR gets a leading
 * single quote), then RFC 4180 quoting when it holds a comma, quote, CR or LF.
 */
function writeCell(w: usize, src: usize, len: i32): usize {
  let quote = false;
  for (let i = 0; i < len; i++) {
    const b = load<u8>(src + <usize>i);
    if (b == 44 || b == 34 || b == 13 || b == 10) {
      quote = true;
      break;
    }
  }
  if (quote) store<u8>(w++, 34);
  if (len > 0) {
    const b0 = load<u8>(src);
    if (b0 == 61 || b0 == 43 || b0 == 45 || b0 == 64 || b0 == 9 || b0 == 13) store<u8>(w++, 39);
  }
  if (quote) {
    for (let i = 0; i < len; i++) {
      const b = load<u8>(src + <usize>i);
      store<u8>(w++, b);
      if (b == 34) store<u8>(w++, 34);
    }
    store<u8>(w++, 34);
  } else {
    memory.copy(w, src, <usize>len);
    w += <usize>len;
  }
  return w;
}

// @ts-ignore: decorator
@inline function pipe(w: usize): usize {
  store<u8>(w, 124);
  return w + 1;
}

// @ts-ignore: decorator
@inline function comma(w: usize): usize {
  store<u8>(w, 44);
  return w + 1;
}

/** Room `out` needs for n readings with `textBytes` bytes of packed text (either file). */
export function councilRoom(n: i32, textBytes: i32): i32 {
  return textBytes * 2 + n * 256 + 64;
}

/**
 * The council results file: one row per completed reading, numbered from 1, 17 positions:
 * (1) row number, (2) route name, (3) sequence / 10, (4) valuation ref, (5) ozone number,
 * (6) address, (7) owner, (8) read date DD-MM-YY, (9) reading (blank unless an integer 0 to
 * 9,999,999), (10) can't-read code, (11) notes when a can't-read code exists, (12) comment code,
 * (13) notes when a comment code exists, (14) serial, (15)-(17) blank. Rows are numbered on
 * from rowsBefore (a file written in blocks). Returns bytes written.
 */
export function councilResultRows(n: i32, text: usize, nums: usize, zt: usize, zo: usize, zn: i32, rowsBefore: i32, out: usize): i32 {
  let w = out;
  let p = 0;
  let row = <u32>rowsBefore;
  for (let i = 0; i < n; i++) {
    p = scanRow(text, p);
    const flags = <i32>num(nums, i, N_FLAGS);
    if ((flags & F_COMPLETED) == 0) continue;
    row++;
    w = writeUint(w, row);
    w = pipe(w);
    w = copyPlain(w, fStart(text, T_ROUTE), fLen(T_ROUTE));
    w = pipe(w);
    const seq = num(nums, i, N_SEQUENCE);
    if (seq >= 0 && seq < 4294967296.0 && seq == Math.floor(seq)) {
      const s = <u32>seq;
      w = writeUint(w, s / 10);
      if (s % 10 != 0) {
        store<u8>(w++, 46);
        store<u8>(w++, <u8>(48 + s % 10));
      }
    }
    w = pipe(w);
    w = copyPlain(w, fStart(text, T_VALUATION), fLen(T_VALUATION));
    w = pipe(w);
    w = copyPlain(w, fStart(text, T_OZONE), fLen(T_OZONE));
    w = pipe(w);
    w = copyPlain(w, fStart(text, T_ADDRESS), fLen(T_ADDRESS));
    w = pipe(w);
    w = copyPlain(w, fStart(text, T_OWNER), fLen(T_OWNER));
    w = pipe(w);
    const t = num(nums, i, N_RECORDED_AT);
    if (isFinite(t)) {
      civilOf(t + offsetAt(zt, zo, zn, t));
      w = d2(w, cD);
      store<u8>(w++, 45);
      w = d2(w, cM);
      store<u8>(w++, 45);
      w = d2(w, ((cY % 100) + 100) % 100);
    }
    w = pipe(w);
    const v = num(nums, i, N_VALUE);
    if (isReading(v)) w = writeUint(w, <u32>v);
    w = pipe(w);
    const cant = fLen(T_CANT_READ);
    w = copyPlain(w, fStart(text, T_CANT_READ), cant);
    w = pipe(w);
    if (cant > 0) w = copyPlain(w, fStart(text, T_NOTES), fLen(T_NOTES));
    w = pipe(w);
    const comment = fLen(T_COMMENT);
    w = copyPlain(w, fStart(text, T_COMMENT), comment);
    w = pipe(w);
    if (comment > 0) w = copyPlain(w, fStart(text, T_NOTES), fLen(T_NOTES));
    w = pipe(w);
    w = copyPlain(w, fStart(text, T_SERIAL), fLen(T_SERIAL));
    store<u32>(w, 0x7c7c7c); // "|||": positions 15 to 17 blank
    w += 3;
    store<u16>(w, 0x0a0d);
    w += 2;
  }
  return <i32>(w - out);
}


export const CSV_ALL = 0;
export const CSV_EXCEPTIONS = 1;

/**
 * Readings CSV rows (section 7.3): Sequence, Serial, Location, Property Address, Owner, Valuation
 * Ref, Additional Location Info, Latitude, Longitude, Value, Recorded Time (HH:mm:ss DD/MM/YYYY,
 * local), Recorded By, Previous Reading, Exception, Service Required, Notes, Route Name, Task No.
 * mode CSV_EXCEPTIONS keeps completed readings with an exception other than none, or a
 * can't-read code, a comment code or service required. Returns bytes written.
 */
export function councilCsvRows(n: i32, text: usize, nums: usize, zt: usize, zo: usize, zn: i32, mode: i32, out: usize): i32 {
  let w = out;
  let p = 0;
  for (let i = 0; i < n; i++) {
    p = scanRow(text, p);
    const flags = <i32>num(nums, i, N_FLAGS);
    if (mode == CSV_EXCEPTIONS) {
      if ((flags & F_COMPLETED) == 0) continue;
      if ((flags & F_EXCEPTION) == 0 && fLen(T_CANT_READ) == 0 && fLen(T_COMMENT) == 0 && (flags & F_SERVICE) == 0) continue;
    }
    w = writeNumber(w, num(nums, i, N_SEQUENCE), 0);
    w = comma(w);
    w = writeCell(w, fStart(text, T_SERIAL), fLen(T_SERIAL));
    w = comma(w);
    w = writeCell(w, fStart(text, T_LOCATION), fLen(T_LOCATION));
    w = comma(w);
    w = writeCell(w, fStart(text, T_ADDRESS), fLen(T_ADDRESS));
    w = comma(w);
    w = writeCell(w, fStart(text, T_OWNER), fLen(T_OWNER));
    w = comma(w);
    w = writeCell(w, fStart(text, T_VALUATION), fLen(T_VALUATION));
    w = comma(w);
    w = writeCell(w, fStart(text, T_ADDITIONAL), fLen(T_ADDITIONAL));
    w = comma(w);
    w = writeNumber(w, num(nums, i, N_LATITUDE), 6);
    w = comma(w);
    w = writeNumber(w, num(nums, i, N_LONGITUDE), 6);
    w = comma(w);
    const v = num(nums, i, N_VALUE);
    if (isReading(v)) w = writeUint(w, <u32>v);
    w = comma(w);
    const t = num(nums, i, N_RECORDED_AT);
    if (isFinite(t)) {
      civilOf(t + offsetAt(zt, zo, zn, t));
      w = d2(w, cSod / 3600);
      store<u8>(w++, 58);
      w = d2(w, (cSod / 60) % 60);
      store<u8>(w++, 58);
      w = d2(w, cSod % 60);
      store<u8>(w++, 32);
      w = d2(w, cD);
      store<u8>(w++, 47);
      w = d2(w, cM);
      store<u8>(w++, 47);
      const yy = ((cY % 10000) + 10000) % 10000;
      w = d2(w, yy / 100);
      w = d2(w, yy % 100);
    }
    w = comma(w);
    w = writeCell(w, fStart(text, T_RECORDER), fLen(T_RECORDER));
    w = comma(w);
    w = writeNumber(w, num(nums, i, N_PREVIOUS), 0);
    w = comma(w);
    w = writeCell(w, fStart(text, T_EXCEPTION), fLen(T_EXCEPTION));
    w = comma(w);
    if ((flags & F_SERVICE) != 0) {
      store<u16>(w, 0x6559); // "Ye"
      store<u8>(w + 2, 115); // "s"
      w += 3;
    } else {
      store<u16>(w, 0x6f4e); // "No"
      w += 2;
    }
    w = comma(w);
    w = writeCell(w, fStart(text, T_NOTES), fLen(T_NOTES));
    w = comma(w);
    w = writeCell(w, fStart(text, T_ROUTE), fLen(T_ROUTE));
    w = comma(w);
    w = writeNumber(w, num(nums, i, N_TASK_NUMBER), 0);
    store<u16>(w, 0x0a0d);
    w += 2;
  }
  return <i32>(w - out);
}
