import type { ServerResponse } from 'node:http';

/**
 * Headers as the Fetch Headers of the app's answers list them: names lower-cased, sorted by name.
 * For the listeners that answer a route on Node's own request (ingest-http.ts, measurements-http.ts).
 */
export function appHeaders(list: Iterable<readonly [string, string]>): [string, string][] {
  return [...list].map(([k, v]) => [k.toLowerCase(), v] as [string, string]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/**
 * Sends an answer with `head` (from appHeaders) and content-length last, as the app does. A body
 * given in parts is sent as they are, one after another (no copy into one buffer).
 */
export function sendAnswer(res: ServerResponse, status: number, head: readonly [string, string][], body: string | Uint8Array | readonly Uint8Array[]) {
  const headers: string[] = [];
  for (const [k, v] of head) headers.push(k, v);
  const parts = typeof body === 'string' || body instanceof Uint8Array ? null : body;
  headers.push('content-length', String(parts ? parts.reduce((sum, p) => sum + p.byteLength, 0) : Buffer.byteLength(body as string | Uint8Array)));
  res.writeHead(status, headers);
  if (!parts) return void res.end(body);
  res.cork();
  for (const p of parts) res.write(p);
  res.end();
}
