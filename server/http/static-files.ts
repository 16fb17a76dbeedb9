import type { Context, MiddlewareHandler } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { compress } from 'hono/compress';
import { existsSync } from 'node:fs';
import { Duplex } from 'node:stream';
import { createDeflate, createGzip } from 'node:zlib';
import { relative, sep } from 'node:path';

/** Hashed build output (Vite writes every bundled file under /assets/ with its content hash in the name). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, the reader's pages, a service worker, the manifest, public/ files): ask every time. */
export const REVALIDATE = 'no-cache';

/**
 * A service worker script or a web app manifest, wherever it sits: never cached as immutable, or a
 * fixed worker could never replace itself (browsers fetch the worker script honouring HTTP caching
 * up to 24 hours, and a stale manifest keeps an old icon set).
 */
const ALWAYS_REVALIDATE = /(?:^|\/)(?:sw|service-worker|registerSW)\.js$|\.webmanifest$|(?:^|\/)manifest\.json$|\.html$/;

/** The Cache-Control for a static file, by its path under the build's root (`assets/index-Ab12Cd34.js`). */
export function staticCacheControl(file: string): string {
  if (ALWAYS_REVALIDATE.test(file)) return REVALIDATE;
  return file.startsWith('assets/') ? IMMUTABLE : REVALIDATE;
}

/**
 * The built client from `root` (or the one file `only` under it): the brotli or gzip file the build
 * wrote beside each file (vite-plugin-compression2), chosen by Accept-Encoding, with
 * `Vary: Accept-Encoding` on every answer of a file that has compressed forms (an uncompressed
 * answer too, so no shared cache hands it to a browser that asked for brotli, or the other way
 * round); Cache-Control by the rule above.
 */
export function staticFiles(root: string, only?: string): MiddlewareHandler {
  return serveStatic({
    root,
    path: only,
    precompressed: true,
    onFound: (sent, c) => {
      const original = sent.replace(/\.(br|gz|zst)$/, '');
      c.header('Cache-Control', staticCacheControl(relative(root, original).split(sep).join('/')));
      // a compressed file sent already carries Vary (serveStatic sets it)
      if (sent === original && (existsSync(`${original}.br`) || existsSync(`${original}.gz`))) c.header('Vary', 'Accept-Encoding', { append: true });
    },
  });
}

/** Measurement pages: their direct listener (measurements-http.ts) answers them uncompressed, and so must the app. */
const MEASUREMENT_PAGE = /^\/api\/organisations\/[^/]+\/sensors\/[^/]+\/measurements$/;

/**
 * JSON answers of the gateway and identity above 1 KiB gzip- or deflate-compressed at zlib's level 1
 * (Hono's compress middleware chooses: it streams, so nothing is held back, and it leaves a 206, an
 * answer already encoded, `Cache-Control: no-transform` and other content types alone). Level 1,
 * not the default 6: the whole compact sensor list at 100,000 sensors is 19 MB of JSON, which level
 * 6 takes about 1 s of the server's CPU to compress and level 1 about 0.4 s, for 15 % more bytes
 * (docs/performance.md, benchmark 22). Measurement pages stay as they are: the chart asks for the
 * binary column form, which is not compressible text, and the JSON form must be the same bytes
 * whichever listener answers it.
 */
export function compressJson(): MiddlewareHandler {
  const gzip = compress({ threshold: 1024, contentTypeFilter: JSON_TYPE });
  return (c: Context, next) =>
    MEASUREMENT_PAGE.test(c.req.path)
      ? next()
      : gzip(c, async () => {
          await next();
          await measure(c);
          fastCompression(c);
        });
}

/** Bodies streamed as they are built (the whole compact list): compressed as they stream, never read whole to be measured. */
const streamed = new WeakSet<ReadableStream>();

/** Marks a body streamed as it is built: compressJson compresses it (it is large) without reading it whole first. */
export function streamedBody(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  streamed.add(body);
  return body;
}

/**
 * Compresses the answer here at level 1 (gzip or deflate as Accept-Encoding asks, Hono's choice)
 * and marks it encoded, so Hono's compress, which has no level (CompressionStream), leaves it.
 */
function fastCompression(c: Context) {
  const res = c.res;
  if (!res.body || c.req.method === 'HEAD' || res.status === 206 || res.headers.has('Content-Encoding') || res.headers.has('Transfer-Encoding')) return;
  if (!JSON_TYPE.test(res.headers.get('Content-Type') ?? '') || /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get('Cache-Control') ?? '')) return;
  const length = res.headers.get('Content-Length');
  if (length !== null && Number(length) < 1024) return;
  const vary = res.headers.get('Vary');
  if (vary !== '*' && !/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary ?? '')) c.header('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
  const encoding = acceptedEncoding(c.req.header('Accept-Encoding'));
  if (!encoding) return;
  const zip = encoding === 'gzip' ? createGzip({ level: 1 }) : createDeflate({ level: 1 });
  // Hono's res setter copies the old answer's headers onto the new one: Content-Length goes after
  c.res = new Response(res.body.pipeThrough(Duplex.toWeb(zip) as ReadableWritablePair<Uint8Array, Uint8Array>), res);
  c.res.headers.delete('Content-Length');
  c.res.headers.set('Content-Encoding', encoding);
}

/** gzip or deflate as Accept-Encoding allows, gzip first (as Hono's compress chooses); undefined for neither. */
function acceptedEncoding(header: string | undefined): 'gzip' | 'deflate' | undefined {
  if (!header) return undefined;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const qp = params.map((x) => x.trim()).find((x) => x.startsWith('q='));
    q.set(name!, qp ? Number(qp.slice(2)) || 0 : 1);
  }
  const of = (e: string) => q.get(e) ?? q.get('*') ?? 0;
  const gzip = of('gzip');
  const deflate = of('deflate');
  if (gzip <= 0 && deflate <= 0) return undefined;
  return gzip >= deflate ? 'gzip' : 'deflate';
}

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json(?:;|$)/i;

/**
 * Gives a JSON answer its Content-Length: compress applies its threshold only to a known length,
 * and c.json() sends none, so without this every JSON answer, `{"status":"ok"}` too, would be
 * compressed. The body is the string c.json() made, already in memory.
 */
async function measure(c: Context) {
  const res = c.res;
  if (!res.body || streamed.has(res.body) || res.headers.has('Content-Length') || res.headers.has('Content-Encoding') || !JSON_TYPE.test(res.headers.get('Content-Type') ?? '')) return;
  const body = await res.arrayBuffer();
  const sized = new Response(body, res);
  sized.headers.set('Content-Length', String(body.byteLength));
  c.res = sized;
}
