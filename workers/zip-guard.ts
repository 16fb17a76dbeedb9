// Checks an .xlsx (a zip) before SheetJS opens it: a zip bomb must fail here, having inflated at
// most a bounded number of bytes, instead of filling the worker's memory inside the reader.

/** Limits of a special-route workbook (a 20,000-row sheet inflates to a few MB). */
export const ZIP_LIMITS = { maxEntries: 500, maxTotalBytes: 64 * 1024 * 1024, maxRatio: 200 };

const u16 = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const u32 = (b: Uint8Array, o: number) => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;

/** Inflates raw deflate data, counting bytes; stops as soon as `max` is passed. */
async function inflatedSize(data: Uint8Array, max: number): Promise<number> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  const reader = stream.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return total;
      total += value.byteLength;
      if (total > max) return total;
    }
  } catch {
    throw new Error('the workbook is damaged');
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}

/**
 * Resolves when the bytes are a plain zip whose entries inflate to what they declare, within
 * ZIP_LIMITS; else rejects with a reason for people ("the workbook expands to more than 64 MB").
 */
export async function checkZip(bytes: Uint8Array, limits = ZIP_LIMITS): Promise<void> {
  if (bytes.byteLength < 22 || u32(bytes, 0) !== 0x04034b50) throw new Error('not an xlsx workbook');
  let eocd = -1;
  for (let o = bytes.byteLength - 22; o >= Math.max(0, bytes.byteLength - 22 - 65535); o--) {
    if (u32(bytes, o) === 0x06054b50) {
      eocd = o;
      break;
    }
  }
  if (eocd < 0) throw new Error('not an xlsx workbook');
  const entries = u16(bytes, eocd + 10);
  const cdOffset = u32(bytes, eocd + 16);
  if (entries === 0xffff || cdOffset === 0xffffffff) throw new Error('the workbook is too large (zip64)');
  if (entries > limits.maxEntries) throw new Error(`the workbook has more than ${limits.maxEntries} parts`);
  let declared = 0;
  let inflated = 0;
  let p = cdOffset;
  for (let i = 0; i < entries; i++) {
    if (p + 46 > bytes.byteLength || u32(bytes, p) !== 0x02014b50) throw new Error('the workbook is damaged');
    const flags = u16(bytes, p + 8);
    const method = u16(bytes, p + 10);
    const compressed = u32(bytes, p + 20);
    const size = u32(bytes, p + 24);
    const local = u32(bytes, p + 42);
    p += 46 + u16(bytes, p + 28) + u16(bytes, p + 30) + u16(bytes, p + 32);
    if (flags & 1) throw new Error('the workbook is encrypted');
    if (method !== 0 && method !== 8) throw new Error('the workbook uses an unknown compression');
    declared += size;
    if (declared > limits.maxTotalBytes) throw new Error(`the workbook expands to more than ${limits.maxTotalBytes / 1048576} MB`);
    if (size > 1024 * 1024 && size > compressed * limits.maxRatio) throw new Error('the workbook is compressed suspiciously well (a zip bomb?)');
    if (local + 30 > bytes.byteLength || u32(bytes, local) !== 0x04034b50) throw new Error('the workbook is damaged');
    const start = local + 30 + u16(bytes, local + 26) + u16(bytes, local + 28);
    if (start + compressed > bytes.byteLength) throw new Error('the workbook is damaged');
    if (method === 8) {
      // what the entry really inflates to: a zip may declare small sizes and hold a bomb
      const real = await inflatedSize(bytes.subarray(start, start + compressed), Math.min(size, limits.maxTotalBytes - inflated) + 1);
      if (real > size) throw new Error('the workbook expands to more than it declares (a zip bomb?)');
      inflated += real;
    } else {
      inflated += compressed;
    }
    if (inflated > limits.maxTotalBytes) throw new Error(`the workbook expands to more than ${limits.maxTotalBytes / 1048576} MB`);
  }
}
