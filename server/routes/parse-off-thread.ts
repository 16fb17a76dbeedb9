import { Worker } from 'node:worker_threads';
import { ZodRealError, type z } from 'zod';
import { badRequest } from '../http/errors';
import { TOO_DEEP_MESSAGE } from '../http/json-depth';
import type { RouteImport, SpecialRouteCreate } from '../../src/contract/route.schema';

interface Schemas {
  routeImport: RouteImport;
  specialRoute: SpecialRouteCreate;
}
export interface ParseRequest {
  id: number;
  schema: keyof Schemas;
  text: string;
}
export type ParseReply =
  | { id: number; ok: true; data: unknown }
  | { id: number; ok: false; issues: z.core.$ZodIssue[] }
  | { id: number; ok: false; syntax: true; tooDeep: boolean };

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, { resolve: (r: ParseReply) => void; reject: (e: Error) => void }>();

function start(): Worker {
  // the worker is TypeScript: its .mjs entry registers tsx first (a worker does not inherit the loader)
  const w = new Worker(new URL('./import-parse.worker.mjs', import.meta.url));
  w.unref(); // an idle parser never keeps the process alive
  w.on('message', (reply: ParseReply) => {
    pending.get(reply.id)?.resolve(reply);
    pending.delete(reply.id);
  });
  const fail = (err: Error) => {
    if (worker === w) worker = undefined; // the next import starts a new one
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`the import parser stopped (exit ${code})`)));
  return w;
}

/**
 * A route import's body parsed and checked against its schema in a worker thread, so a 10 MiB
 * council file never holds the event loop (other organisations' requests go on meanwhile). The
 * answers are those of the same work in place: INVALID_JSON for bad or too deeply nested JSON, the
 * schema's ZodError (INVALID_REQUEST) for a bad value.
 */
export async function parseOffThread<K extends keyof Schemas>(schema: K, text: string): Promise<Schemas[K]> {
  worker ??= start();
  const id = nextId++;
  const w = worker;
  const reply = await new Promise<ParseReply>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.ref(); // while a parse is under way the process waits for it
    w.postMessage({ id, schema, text } satisfies ParseRequest);
  }).finally(() => {
    if (!pending.size) w.unref();
  });
  if (reply.ok) return reply.data as Schemas[K];
  if ('issues' in reply) throw new ZodRealError(reply.issues); // what schema.parse throws (ZodError itself is no Error: Hono would not handle it)
  throw badRequest('INVALID_JSON', reply.tooDeep ? TOO_DEEP_MESSAGE : 'The request body is not valid JSON.');
}
