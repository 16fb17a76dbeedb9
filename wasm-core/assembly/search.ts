/**
 * First index in the sorted f64 time column at tp (n entries) whose time is >= t (upper: > t).
 * The one binary search of the core: the store's segments and M4's window ends both use it.
 */
export function lowerBound(tp: usize, n: i32, t: f64, upper: bool): i32 {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const x = load<f64>(tp + (<usize>mid << 3));
    if (x < t || (upper && x == t)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
