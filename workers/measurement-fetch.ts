import { z } from 'zod';
import { measurementColumnsPageSchema } from '../src/contract/measurement.schema';
import { COLUMNS_MEDIA_TYPE, decodeColumnsPage } from '../src/contract/measurement-columns';
import type { SeriesTarget } from './data-api';
import type { TimeRange } from './chunk-plan';

/** The part of the column page the store uses (betaRawDistance is not charted). */
const pageSchema = z.object({
  columns: measurementColumnsPageSchema.shape.columns.pick({ time: true, rawDistance: true }),
  next: z.string().nullable(),
});

export interface FetchContext {
  apiBase: string;
  token: string;
  fetch: typeof fetch;
  signal?: AbortSignal;
}

export interface ChunkColumns {
  time: ArrayLike<number>;
  rawDistance: ArrayLike<number>;
}

/** Asks for the binary column form; a server that only speaks JSON answers the JSON column shape. */
const ACCEPT = `${COLUMNS_MEDIA_TYPE}, application/json;q=0.5`;

/**
 * One chunk, all its pages: GET .../measurements?order=asc&startTime&endTime&format=columns,
 * following `next` until it is null. The binary column form (negotiated by Accept) arrives as
 * typed-array views on the response body, handed to the core as they are: no text is parsed.
 * A JSON answer is parsed and validated here, in the worker, never on the main thread.
 * A non-200 answer throws the response text (monitoring-client.md 7).
 */
export async function fetchChunk(ctx: FetchContext, target: SeriesTarget, range: TimeRange, onPage: (page: ChunkColumns) => void): Promise<void> {
  const base = `${ctx.apiBase.replace(/\/$/, '')}/organisations/${encodeURIComponent(target.orgId)}/sensors/${encodeURIComponent(target.sensorId)}/measurements`;
  let cursor: string | null = null;
  do {
    const url = new URL(base, globalThis.location?.href ?? 'http://localhost');
    url.searchParams.set('order', 'asc');
    url.searchParams.set('startTime', String(range.startTime));
    url.searchParams.set('endTime', String(range.endTime));
    url.searchParams.set('format', 'columns');
    if (cursor) url.searchParams.set('start', cursor);
    const res = await ctx.fetch(url, { headers: { Authorization: ctx.token, Accept: ACCEPT }, signal: ctx.signal });
    if (!res.ok) {
      const text = await res.text();
      throw new Error(text || `HTTP ${res.status}`);
    }
    if (res.headers.get('content-type')?.split(';')[0].trim() === COLUMNS_MEDIA_TYPE) {
      const page = decodeColumnsPage(await res.arrayBuffer());
      onPage(page);
      cursor = page.next;
      continue;
    }
    const page = pageSchema.parse(JSON.parse(await res.text()));
    if (page.columns.time.length !== page.columns.rawDistance.length) throw new Error('The measurements page has columns of different lengths.');
    onPage(page.columns);
    cursor = page.next;
  } while (cursor);
}
