import { Hono } from 'hono';
import type { AppContext } from '../context';
import { requireMemberWithSensor, type GatewayEnv } from '../http/auth';
import { badRequest, notFound } from '../http/errors';
import { one, type Queryable } from '../db/db';
import { uuidParam } from '../http/input-guard';
import { fairShareOf } from '../http/fair-share';
import { MAX_TIME } from '../../src/contract/safe-text';
import { measurementQuerySchema, type MeasurementQuery } from '../../src/contract/measurement.schema';
import { COLUMNS_MAGIC, COLUMNS_MEDIA_TYPE, columnsHeaderBytes } from '../../src/contract/measurement-columns';

/**
 * Rows per page when the caller gives no limit. The chart's worker asks for ~15-day chunks
 * (21,600 rows of 1-minute data), so a chunk is one page; a whole year in one request is
 * 11 pages. 50,000 rows is ~1.3 MB of JSON in the column shape and ~30 ms of database time.
 */
export const DEFAULT_PAGE_SIZE = 50_000;

/** The paging cursor is opaque to callers: base64url of the last time the page held. */
export const encodeCursor = (time: number) => Buffer.from(`m1:${time}`).toString('base64url');

export function decodeCursor(cursor: string): number {
  const m = /^m1:(\d{1,16})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m || Number(m[1]) > MAX_TIME) throw badRequest('INVALID_CURSOR', 'The start cursor is not one this server gave out; pass the `next` value of the previous page.');
  return Number(m[1]);
}

export function parseQuery(raw: Record<string, string>): MeasurementQuery {
  for (const key of ['startTime', 'endTime'] as const) {
    const v = raw[key];
    if (v === undefined || v === '') throw badRequest('INVALID_QUERY', `${key} is required: epoch milliseconds.`);
    if (!/^\d+$/.test(v)) throw badRequest('INVALID_QUERY', `${key} must be a non-negative whole number of epoch milliseconds, not "${v}".`);
  }
  const parsed = measurementQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest('INVALID_QUERY', `${issue.path.join('.') || 'query'}: ${issue.message}`);
  }
  if (parsed.data.startTime > parsed.data.endTime) throw badRequest('INVALID_QUERY', 'startTime must not be after endTime.');
  return parsed.data;
}

interface PageText {
  n: number;
  edge: number | null;
  t: string | Uint8Array | null;
  d: string | Uint8Array | null;
  b: string | Uint8Array | null;
  j: string | null;
}

/** The JSON shapes (format=rows|columns) or the binary column form (COLUMNS_MEDIA_TYPE). */
export type PageForm = 'rows' | 'columns' | 'binary';

/**
 * A check asked in the page's own statement (measurements-http.ts: the caller's sign-in, membership
 * and the sensor's organisation), so that a request costs the database one statement: `columns`
 * (SQL select items; their parameters are numbered from $5, after the page's four, which they may
 * use too) come back with the page, which is read only where `pass` (SQL over `guard.` columns)
 * holds. The guard is MATERIALIZED: asked once, and `pass` decides the page's LIMIT (0 where it
 * fails), so no rows are read then and no filter node stands between the scan and the page.
 */
export interface PageGuard {
  columns: string;
  pass: string;
  params: unknown[];
}

/**
 * One page built by the database in one statement over an index-ordered range scan: JSON text
 * (string_agg; on PGlite ~8x faster than returning rows, no per-row JS objects) or, for the binary
 * form, each column as one bytea of big-endian IEEE values (float8send/float4send, which skip the
 * float-to-text formatting); the server swaps them to little-endian. On PGlite they come in
 * PostgreSQL's binary result format (db.queryBinary), as Buffers; node-postgres receives results
 * only as text, so there each travels as base64 text, decoded here to a Buffer.
 */
async function readPage<G extends object>(db: Queryable, sensorId: string, q: MeasurementQuery, form: PageForm, from: number, to: number, limit: number, guard?: PageGuard) {
  const dir = q.order === 'asc' ? 'ASC' : 'DESC';
  const edge = q.order === 'asc' ? 'max(time)' : 'min(time)';
  const beta = `COALESCE(beta_raw_distance::text, 'null')`;
  // The binary columns: on PGlite as bytea in the binary result format (queryBinary), Buffers with
  // no text at all. On PostgreSQL as base64 text rather than bytea (which node-postgres receives
  // as hex text): a third less text to make, move and decode (a year of pages 500 -> 471 ms on
  // PostgreSQL 15, medians of 9); decoded to Buffers below.
  const raw = form === 'binary' && db.queryBinary !== undefined;
  const column = (col: string) => (raw ? `string_agg(${col}, ''::bytea ORDER BY time ${dir})` : `encode(string_agg(${col}, ''::bytea ORDER BY time ${dir}), 'base64')`);
  const first = async <R>(sql: string, params: unknown[]) => (raw ? (await db.queryBinary!<R>(sql, params))[0] : one<R>(db, sql, params));
  const aggregates =
    form === 'binary'
      ? `${column('float8send(time::float8)')} AS t, ${column('float4send(raw_distance)')} AS d,
         ${column(`float4send(COALESCE(beta_raw_distance, 'NaN'::real))`)} AS b, NULL AS j`
      : form === 'columns'
        ? `string_agg(time::text, ',' ORDER BY time ${dir}) AS t, string_agg(raw_distance::text, ',' ORDER BY time ${dir}) AS d,
         string_agg(${beta}, ',' ORDER BY time ${dir}) AS b, NULL AS j`
        : `NULL AS t, NULL AS d, NULL AS b,
         string_agg('{"time":' || time || ',"rawDistance":' || raw_distance::text || ',"betaRawDistance":' || ${beta} || '}', ',' ORDER BY time ${dir}) AS j`;
  // The LIMIT is a value the planner does not see while planning (an InitPlan, or the guard's
  // CASE), on purpose: with a known limit at least the chunk's rows it plans for the whole range
  // and picks a bitmap heap scan and a sort of every row by time (measured on PGlite: 12.2 ms a
  // 21,600-row chunk, with or without statistics; PostgreSQL 15: 21.5 ms); an unknown limit makes
  // it read the primary key (sensor_id, time) in order, which needs no sort (10.3 ms; 18.1 ms).
  // The rows and their order are the same. Benchmark 6's floor runs this same statement (no guard).
  // The guard's `pass` goes into the LIMIT rather than the WHERE: as a WHERE term it became a
  // Result node with a one-time filter that every row passed through (13.3 ms against 10.8 ms).
  const pageSql = (limit: string) =>
    `SELECT count(*)::int AS n, ${edge} AS edge, ${aggregates}
       FROM (SELECT time, raw_distance, beta_raw_distance FROM measurements
              WHERE sensor_id = $1 AND time >= $2 AND time <= $3 ORDER BY time ${dir} LIMIT ${limit}) page`;
  const row = guard
    ? await first<PageText & G>(
        `WITH guard AS MATERIALIZED (SELECT ${guard.columns}) SELECT guard.*, page.* FROM guard CROSS JOIN LATERAL (${pageSql(`CASE WHEN ${guard.pass} THEN $4::int ELSE 0 END`)}) page`,
        [sensorId, from, to, limit, ...guard.params],
      )
    : await first<PageText & G>(pageSql('(SELECT $4::int)'), [sensorId, from, to, limit]);
  // base64 with PostgreSQL's line breaks, which Buffer.from skips
  if (form === 'binary') for (const k of ['t', 'd', 'b'] as const) row![k] = typeof row![k] === 'string' ? Buffer.from(row![k], 'base64') : row![k];
  return row!;
}

/**
 * The endpoint's database work for one request, and nothing else: the page and whether another
 * follows. Benchmark 6 runs exactly this, alone, as its floor (without a guard). With a guard,
 * the guard's columns too (`checked`), in the same statement.
 */
export async function readMeasurements<G extends object = object>(db: Queryable, sensorId: string, q: MeasurementQuery, form: PageForm, guard?: PageGuard) {
  // the cursor is the last time already sent: the next page starts just after it
  let from = q.startTime;
  let to = q.endTime;
  if (q.start !== undefined) {
    const last = decodeCursor(q.start);
    if (q.order === 'asc') from = Math.max(from, last + 1);
    else to = Math.min(to, last - 1);
  }
  const limit = q.limit ?? DEFAULT_PAGE_SIZE;
  // with a guard the statement runs even for an empty range (it reads no rows then): its check is needed
  const read = from <= to || guard ? await readPage<G>(db, sensorId, q, form, from, to, limit, guard) : null;
  const page = from <= to ? read : null;
  let next: string | null = null;
  if (page && page.n === limit && page.edge !== null) {
    const more = q.order === 'asc' ? [page.edge + 1, to] : [from, page.edge - 1];
    const exists = more[0] <= more[1] && (await one(db, 'SELECT 1 FROM measurements WHERE sensor_id = $1 AND time >= $2 AND time <= $3 LIMIT 1', [sensorId, ...more]));
    if (exists) next = encodeCursor(page.edge);
  }
  return { page, next, checked: read as G | null };
}

/** A column as a Buffer without copying (PGlite gives a Buffer, node-postgres too). */
const bytes = (x: string | Uint8Array | null) => (x instanceof Uint8Array ? Buffer.from(x.buffer, x.byteOffset, x.byteLength) : Buffer.alloc(0));

/**
 * The binary column form (src/contract/measurement-columns.ts) as the parts to send one after
 * another: the header with the cursor, then the three little-endian columns. The columns are the
 * page's own Buffers, swapped in place (each page is answered once): no body-sized buffer is
 * allocated and copied into for every page (benchmark 6: a year is 25 pages of about 700 KB, and
 * every such allocation pushed the server towards a full garbage collection).
 */
export function columnsParts(page: PageText | null, next: string | null): Buffer[] {
  const n = page?.n ?? 0;
  const cursor = Buffer.from(next ?? '', 'latin1');
  const h = columnsHeaderBytes(cursor.length);
  const head = Buffer.alloc(h);
  head.write(COLUMNS_MAGIC, 0, 'latin1');
  head.writeUInt32LE(n, 4);
  head.writeUInt32LE(cursor.length, 8);
  cursor.copy(head, 16);
  if (!page || n === 0) return [head];
  const columns: [Buffer, 4 | 8][] = [
    [bytes(page.t), 8],
    [bytes(page.d), 4],
    [bytes(page.b), 4],
  ];
  for (const [col, width] of columns) {
    if (col.length !== width * n) throw new Error(`a page column has ${col.length} bytes for ${n} rows`);
    if (width === 8) col.swap64();
    else col.swap32();
  }
  return [head, ...columns.map(([col]) => col)];
}

/** The binary column form in one Buffer (the app's route, which answers with one body). */
export const columnsBody = (page: PageText | null, next: string | null): Buffer => Buffer.concat(columnsParts(page, next));

/** Whether the Accept header asks for the binary column form (a q of 0 refuses it). */
export function acceptsColumns(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((part) => {
    const [type, ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return type === COLUMNS_MEDIA_TYPE && !(q && Number(q.slice(2)) === 0);
  });
}

/** What every page answer carries besides the security headers and its Content-Type. */
export const PAGE_HEADERS = { 'Cache-Control': 'no-store', Vary: 'Accept' } as const;

/** A page's body in the form asked for, and its Content-Type. */
export function pageAnswer(form: PageForm, page: PageText | null, next: string | null): { body: Buffer[] | string; type: string } {
  if (form === 'binary') return { body: columnsParts(page, next), type: COLUMNS_MEDIA_TYPE };
  const nextJson = next === null ? 'null' : `"${next}"`;
  const body =
    form === 'columns'
      ? `{"columns":{"time":[${page?.t ?? ''}],"rawDistance":[${page?.d ?? ''}],"betaRawDistance":[${page?.b ?? ''}]},"next":${nextJson}}`
      : `{"measurements":[${page?.j ?? ''}],"next":${nextJson}}`;
  return { body, type: 'application/json; charset=utf-8' };
}

/** The form of the answer: the binary column form when Accept asks for it, else the query's JSON shape. */
export const pageForm = (accept: string | undefined, q: MeasurementQuery): PageForm => (acceptsColumns(accept) ? 'binary' : q.format);

export function measurementRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();

  // measurements-http.ts answers the plain case of this route before the app sees it, the same way
  r.get('/organisations/:orgId/sensors/:sensorId/measurements', async (c) => {
    const orgId = c.req.param('orgId');
    // membership and the sensor's organisation in one query; errors in the same order as before
    const { sensorExists } = await requireMemberWithSensor(ctx, c, orgId, c.req.param('sensorId') ?? '');
    const sensorId = uuidParam(c, 'sensorId');
    const q = parseQuery(c.req.query());
    if (!sensorExists) throw notFound('SENSOR_NOT_FOUND', 'Sensor not found.');

    const form = pageForm(c.req.header('Accept'), q);
    // a fair share: one member's loop of pages waits its turn instead of starving everyone else's
    const { page, next } = await fairShareOf(ctx.config).run(c.get('caller').id, (orgId ?? '').toLowerCase(), () => readMeasurements(ctx.db, sensorId, q, form));
    const { body, type } = pageAnswer(form, page, next);
    return c.body(typeof body === 'string' ? body : Buffer.concat(body), 200, { ...PAGE_HEADERS, 'Content-Type': type });
  });

  return r;
}
