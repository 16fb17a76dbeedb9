import { parentPort } from 'node:worker_threads';
import { JsonTooDeep, parseClientJson } from '../http/json-depth';
import { routeImportSchema, specialRouteCreateSchema } from '../../src/contract/route.schema';
import type { ParseReply, ParseRequest } from './parse-off-thread';

// The route import's parse and check (a 10 MiB council file is about half a second of both), here so
// the server's event loop never waits on them: parse-off-thread.ts sends the body's text, this answers
// the checked value or what was wrong with it.
const schemas = { routeImport: routeImportSchema, specialRoute: specialRouteCreateSchema };

parentPort!.on('message', ({ id, schema, text }: ParseRequest) => {
  let reply: ParseReply;
  try {
    const parsed = schemas[schema].safeParse(parseClientJson(text));
    reply = parsed.success ? { id, ok: true, data: parsed.data } : { id, ok: false, issues: parsed.error.issues };
  } catch (err) {
    reply = { id, ok: false, tooDeep: err instanceof JsonTooDeep, syntax: true };
  }
  parentPort!.postMessage(reply);
});
