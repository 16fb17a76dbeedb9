import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context';
import { errorAnswer, badRequest } from '../http/errors';
import { DEFAULT_BODY_LIMIT } from '../http/body-limit';
import { securityHeaderList } from '../http/security-headers';
import { parseUplink } from './uplink-parse';
import { ingestUplink } from './uplink';
import { rawHeader as header } from '../http/raw-header';
import { appHeaders, sendAnswer } from '../http/direct-answer';
import { JsonTooDeep, parseClientJson } from '../http/json-depth';

/**
 * `POST /ingest/uplink` straight on Node's request, without the Fetch Request and Response, web
 * streams and the middleware chain every other route goes through (issue 10: they were about a
 * third of the server's CPU per uplink). It answers exactly as the Hono route (ingest.routes.ts)
 * with the app's middleware does: the same security headers, JSON bodies, statuses and messages.
 * It takes only the plain case, a declared Content-Length within the route's limit (64 KiB) and
 * no Transfer-Encoding; anything else (chunked or oversized bodies, other methods and paths,
 * a query string) goes to the app as before, which refuses or answers it. A middleware added to the
 * app that must apply to device uplinks too (a header, a limit, a log line) must be added here as well.
 */
export function uplinkListener(ctx: AppContext): (req: IncomingMessage, res: ServerResponse) => boolean {
  const head = appHeaders([...securityHeaderList(ctx.config), ['content-type', 'application/json']]);
  const decoder = new TextDecoder(); // UTF-8, a leading BOM dropped, bad bytes replaced: as Request.text()
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    sendAnswer(res, status, head, JSON.stringify(body));
  };
  const fail = (res: ServerResponse, err: unknown) => {
    const { status, body } = errorAnswer(err as Error, '/ingest/uplink');
    answer(res, status, body);
  };
  return (req, res) => {
    if (req.method !== 'POST' || req.url !== '/ingest/uplink') return false;
    const declared = req.headers['content-length'];
    if (declared === undefined || req.headers['transfer-encoding'] !== undefined || !(Number(declared) <= DEFAULT_BODY_LIMIT)) return false;
    const key = header(req, 'x-device-key') ?? header(req, 'authorization')?.replace(/^DeviceKey\s+/i, '');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: unknown;
      try {
        body = parseClientJson(decoder.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
      } catch (err) {
        return fail(res, badRequest('INVALID_JSON', err instanceof JsonTooDeep ? err.message : 'The uplink body is not valid JSON.'));
      }
      const parsed = parseUplink(body);
      if (!parsed.success) return fail(res, badRequest('INVALID_UPLINK', parsed.message));
      ingestUplink(ctx, key, parsed.data).then(
        (ack) => answer(res, 200, ack),
        (err: unknown) => fail(res, err),
      );
    });
    return true;
  };
}
