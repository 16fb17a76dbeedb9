/**
 * The binary column form of a measurements page, negotiated with
 * `Accept: application/vnd.tidewatch.columns` on GET .../measurements (the JSON forms stay the
 * default). Little-endian throughout, laid out so that each column is a typed-array view of the
 * body without a copy:
 *
 *   0   4 bytes  magic "TWC1"
 *   4   u32      n, rows in the page
 *   8   u32      L, bytes of the `next` cursor (ASCII; 0 = no next page)
 *   12  u32      0 (reserved)
 *   16  L bytes  the cursor, zero-padded to a multiple of 8
 *   H   f64[n]   time (epoch ms)                H = 16 + L rounded up to 8
 *       f32[n]   rawDistance
 *       f32[n]   betaRawDistance (NaN where the JSON form has null)
 */
export const COLUMNS_MEDIA_TYPE = 'application/vnd.tidewatch.columns';
export const COLUMNS_MAGIC = 'TWC1';

export interface ColumnsPage {
  time: Float64Array;
  rawDistance: Float32Array;
  betaRawDistance: Float32Array;
  next: string | null;
}

/** Offset of the time column for a cursor of `cursorBytes` bytes. */
export const columnsHeaderBytes = (cursorBytes: number) => 16 + ((cursorBytes + 7) & ~7);

/** Reads a binary page (views on `body`, no copy); throws on anything that is not one. */
export function decodeColumnsPage(body: ArrayBuffer): ColumnsPage {
  const bad = (why: string) => new Error(`The measurements page is not a valid column page: ${why}.`);
  if (body.byteLength < 16) throw bad('too short');
  const head = new DataView(body, 0, 16);
  const magic = String.fromCharCode(head.getUint8(0), head.getUint8(1), head.getUint8(2), head.getUint8(3));
  if (magic !== COLUMNS_MAGIC) throw bad('wrong magic');
  const n = head.getUint32(4, true);
  const cursorBytes = head.getUint32(8, true);
  const h = columnsHeaderBytes(cursorBytes);
  if (body.byteLength !== h + 16 * n) throw bad(`${body.byteLength} bytes for ${n} rows`);
  const next = cursorBytes ? String.fromCharCode(...new Uint8Array(body, 16, cursorBytes)) : null;
  return {
    time: new Float64Array(body, h, n),
    rawDistance: new Float32Array(body, h + 8 * n, n),
    betaRawDistance: new Float32Array(body, h + 12 * n, n),
    next,
  };
}
