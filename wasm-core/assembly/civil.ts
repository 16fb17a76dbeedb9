// Calendar pieces shared by the chart CSV (csv.ts) and the council exports (council.ts).

/**
 * The civil date of `days` since 1970-01-01 (H. Hinnant's algorithm, all i32), packed as
 * year << 9 | month << 5 | day; unpack with civilYear, civilMonth and civilDay (the year may be negative).
 */
// @ts-ignore: decorator
@inline export function civilDate(days: i32): i32 {
  const z = days + 719468;
  const era = (z >= 0 ? z : z - 146096) / 146097;
  const doe = z - era * 146097;
  const yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const mp = (5 * doy + 2) / 153;
  const d = doy - (153 * mp + 2) / 5 + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return (y << 9) | (m << 5) | d;
}

// @ts-ignore: decorator
@inline export function civilYear(p: i32): i32 {
  return p >> 9;
}

// @ts-ignore: decorator
@inline export function civilMonth(p: i32): i32 {
  return (p >> 5) & 15;
}

// @ts-ignore: decorator
@inline export function civilDay(p: i32): i32 {
  return p & 31;
}

/** Writes x (0 to 99) as two ASCII digits at w; returns the byte after them. */
// @ts-ignore: decorator
@inline export function d2(w: usize, x: i32): usize {
  store<u8>(w, <u8>(48 + x / 10));
  store<u8>(w + 1, <u8>(48 + (x % 10)));
  return w + 2;
}
