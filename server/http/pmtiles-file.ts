import type { Context } from 'hono';
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';

/** PMTiles v3: the 127-byte header opens with "PMTiles" and the version; byte 99 is the tile type (1: Mapbox vector tiles). */
const HEADER_BYTES = 127;
const MVT = 1;

/** Why the file at `path` cannot be the street map's archive, or undefined when it can (read at start: MAP_PMTILES_PATH). */
export function pmtilesProblem(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(HEADER_BYTES);
    const read = readSync(fd, head, 0, HEADER_BYTES, 0);
    if (read < HEADER_BYTES || head.toString('latin1', 0, 7) !== 'PMTiles') return 'is not a PMTiles archive';
    if (head[7] !== 3) return `is a PMTiles version ${head[7]} archive; the server reads version 3 (convert it with "pmtiles convert")`;
    if (head[99] !== MVT) return 'holds raster or other non-vector tiles; the street map needs vector tiles in the Protomaps basemap layout';
    return undefined;
  } catch (err) {
    return `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The byte range a Range header asks of a file of `size` bytes (RFC 9110 14.1.2): undefined for the
 * whole file (no header, or several ranges, which a server may answer in full), 'unsatisfiable' for
 * a range outside the file or a header that is not a byte range.
 */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return /^bytes=\s*\d*-\d*\s*(,\s*\d*-\d*\s*)+$/.test(header.trim()) ? undefined : 'unsatisfiable';
  const [, first, last] = m;
  if (first === '') {
    // the last N bytes
    const n = Number(last);
    if (last === '' || n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || (last !== '' && Number(last) < start)) return 'unsatisfiable';
  return { start, end };
}

/**
 * Answers GET and HEAD for one file with HTTP range requests: 206 with Content-Range for one range,
 * 416 (Content-Range naming the size) for a range outside it or a malformed one, 200 for the whole file; a
 * validator (ETag from size and modification time, Last-Modified) so a replaced file is noticed,
 * If-Range honoured, If-None-Match answered 304. Read from disk on each request: an operator may
 * replace the file while the server runs.
 */
export function serveByteRanges(c: Context, path: string, contentType: string, cacheControl: string): Response {
  const stat = statSync(path);
  const size = stat.size;
  const etag = `"${size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  c.header('Accept-Ranges', 'bytes');
  c.header('Cache-Control', cacheControl);
  c.header('ETag', etag);
  c.header('Last-Modified', stat.mtime.toUTCString());
  c.header('Content-Type', contentType);
  const ifRange = c.req.header('If-Range');
  // a Range against another version of the file is answered with the whole current one
  const range = ifRange === undefined || ifRange === etag ? byteRange(c.req.header('Range'), size) : undefined;
  if (range === 'unsatisfiable') {
    c.header('Content-Range', `bytes */${size}`);
    return c.body(null, 416);
  }
  if (!range && c.req.header('If-None-Match')?.split(/\s*,\s*/).includes(etag)) return c.body(null, 304);
  const { start, end } = range ?? { start: 0, end: size - 1 };
  c.header('Content-Length', String(Math.max(0, end - start + 1)));
  if (range) c.header('Content-Range', `bytes ${start}-${end}/${size}`);
  const status = range ? 206 : 200;
  if (c.req.method === 'HEAD' || size === 0) return c.body(null, status);
  return c.body(Readable.toWeb(createReadStream(path, { start, end })) as ReadableStream, status);
}
