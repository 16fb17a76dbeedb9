import { Hono, type Context } from 'hono';
import type { AppContext } from '../context';
import { one } from '../db/db';
import { MANAGERS, ROLE, checkRole, type GatewayEnv, type Role } from '../http/auth';
import { mfaMissingSql } from '../http/mfa-rule';
import { HttpError, badRequest, notFound } from '../http/errors';
import { MiB, routeBodyLimit } from '../http/body-limit';
import { fairShareOf } from '../http/fair-share';
import { parseOffThread } from '../routes/parse-off-thread';
import { readStoredFile } from '../storage';
import { createSpecialRoute, importRoute } from '../routes/import';
import { editReading, recordReading } from '../routes/record';
import { publishTask } from '../routes/live';
import { getReading, getTask, listReadings, listTasks, lockTask, conflictCode, taskNotFound } from '../routes/store';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  ROUTE_ERROR_CODES,
  idempotencyKeySchema,
  meterReadingAnswerSchema,
  meterReadingListSchema,
  meterReadingPatchSchema,
  meterReadingPathSchema,
  meterReadingRecordSchema,
  orgPathSchema,
  routeMetadataPathSchema,
  routeMetadataSchema,
  routeMetadataUpsertSchema,
  routeQuerySchema,
  routeTaskAnswerSchema,
  routeTaskDeletedSchema,
  routeTaskListSchema,
  routeTaskPatchSchema,
  routeTaskPathSchema,
  type RouteMetadata,
} from '../../src/contract/route.schema';

/** A 10,000-line council file is about 3.5 MB as JSON; 20,000 readings with long fields fit. */
export const IMPORT_BODY_LIMIT = 16 * MiB;
/** A record call carries one photo of at most 4 MiB, base64 encoded. */
export const RECORD_BODY_LIMIT = 8 * MiB;

export const ALL_ROUTE_ROLES: readonly Role[] = [ROLE.MEMBER, ROLE.ADMIN, ROLE.OWNER, ROLE.METER_READER];
const DATA: readonly Role[] = [ROLE.MEMBER, ROLE.ADMIN, ROLE.OWNER];

/**
 * The tenant rule for service routes: strangers 404 (ORGANISATION_NOT_FOUND), an organisation
 * without the meterReading feature 404 (FEATURE_NOT_ENABLED), a missing role 403.
 */
export async function requireRoutes(ctx: AppContext, c: Context<GatewayEnv>, orgId: string, roles: readonly Role[]): Promise<{ role: Role; userId: string }> {
  const userId = c.get('caller').id;
  const m = await one<{ role: Role; features: { meterReading?: boolean } | null; mfa_missing: boolean }>(
    ctx.db,
    `SELECT m.role, o.features, ${mfaMissingSql('m')} AS mfa_missing FROM memberships m JOIN organisations o ON o.id = m.org_id WHERE m.org_id = $1 AND m.user_id = $2`,
    [orgId, userId],
  );
  if (!m) throw notFound('ORGANISATION_NOT_FOUND', 'Organisation not found.');
  if (!m.features?.meterReading) throw notFound(ROUTE_ERROR_CODES.FEATURE_NOT_ENABLED, 'This organisation does not use meter reading.');
  checkRole(m, roles);
  return { role: m.role, userId };
}

const body = async (c: Context) => c.req.json<unknown>();

function sameOrg(orgId: string, b: { organisationId?: string }) {
  if (b.organisationId !== undefined && b.organisationId !== orgId)
    throw badRequest(ROUTE_ERROR_CODES.ORGANISATION_MISMATCH, 'organisationId must be the organisation of the path.');
}

/** Meter-reading service routes: organisation-and-routes 7.3 and DESIGN.md's record call. */
export function routeTaskRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();
  const task = '/organisations/:orgId/routes/:taskId';
  const reading = `${task}/meter-readings/:readingId`;

  // list route tasks with suburb and classification joined and counts computed; a meter reader sees only their own
  r.get('/organisations/:orgId/routes', async (c) => {
    const { orgId } = orgPathSchema.parse(c.req.param());
    routeQuerySchema.parse(c.req.query());
    const { role, userId } = await requireRoutes(ctx, c, orgId, ALL_ROUTE_ROLES);
    const routes = await listTasks(ctx.db, orgId, role === ROLE.METER_READER ? userId : undefined);
    return c.json(routeTaskListSchema.parse({ routes }));
  });

  // import one normal route (one council file): one call, one transaction, all or nothing
  r.post('/organisations/:orgId/routes', routeBodyLimit(IMPORT_BODY_LIMIT), async (c) => {
    const { orgId } = orgPathSchema.parse(c.req.param());
    routeQuerySchema.parse(c.req.query());
    const { userId } = await requireRoutes(ctx, c, orgId, MANAGERS);
    // a fair share of heavy work, and the parse off the event loop (issue 35: one import stalled the server)
    const id = await fairShareOf(ctx.config).run(userId, orgId, async () => {
      const b = await parseOffThread('routeImport', await c.req.text());
      sameOrg(orgId, b);
      return ctx.db.tx((q) => importRoute(q, orgId, b, ctx.now()));
    });
    await publishTask(ctx, orgId, id);
    return c.json(routeTaskAnswerSchema.parse({ task: await getTask(ctx.db, orgId, id) }), 201);
  });

  // a special route from meters (xlsx) or from readings
  r.post('/organisations/:orgId/special-routes', routeBodyLimit(IMPORT_BODY_LIMIT), async (c) => {
    const { orgId } = orgPathSchema.parse(c.req.param());
    routeQuerySchema.parse(c.req.query());
    const { userId } = await requireRoutes(ctx, c, orgId, MANAGERS);
    const id = await fairShareOf(ctx.config).run(userId, orgId, async () => {
      const b = await parseOffThread('specialRoute', await c.req.text());
      sameOrg(orgId, b);
      return ctx.db.tx((q) => createSpecialRoute(q, orgId, b, ctx.now()));
    });
    await publishTask(ctx, orgId, id);
    return c.json(routeTaskAnswerSchema.parse({ task: await getTask(ctx.db, orgId, id) }), 201);
  });

  // assign (a member's cognitoIdentityId, null unassigns), the exported flag, the group
  r.patch(task, async (c) => {
    const { orgId, taskId } = routeTaskPathSchema.parse(c.req.param());
    routeQuerySchema.parse(c.req.query());
    await requireRoutes(ctx, c, orgId, MANAGERS);
    const b = routeTaskPatchSchema.parse(await body(c));
    await ctx.db.tx(async (q) => {
      await lockTask(q, orgId, taskId);
      if (b.assignedTo) {
        const member = await one(q, 'SELECT 1 FROM memberships WHERE org_id = $1 AND user_id = $2', [orgId, b.assignedTo]);
        if (!member) throw badRequest(ROUTE_ERROR_CODES.INVALID_ASSIGNEE, 'Route tasks can only be assigned to members of the organisation.');
      }
      const sets: string[] = [];
      const params: unknown[] = [taskId];
      const set = (col: string, v: unknown) => {
        params.push(v);
        sets.push(`${col} = $${params.length}`);
      };
      if (b.assignedTo !== undefined) set('assigned_to', b.assignedTo);
      if (b.exported !== undefined) set('exported', b.exported);
      if (b.group !== undefined) set('group_name', b.group?.trim() || null);
      await q.query(`UPDATE route_tasks SET ${sets.join(', ')} WHERE id = $1`, params);
    });
    await publishTask(ctx, orgId, taskId);
    return c.json(routeTaskAnswerSchema.parse({ task: await getTask(ctx.db, orgId, taskId) }));
  });

  // delete: only a task not started (no reading completed)
  r.delete(task, async (c) => {
    const { orgId, taskId } = routeTaskPathSchema.parse(c.req.param());
    routeQuerySchema.parse(c.req.query());
    await requireRoutes(ctx, c, orgId, MANAGERS);
    await ctx.db.tx(async (q) => {
      const t = await lockTask(q, orgId, taskId);
      const done = await one<{ n: number }>(q, 'SELECT count(*)::int AS n FROM meter_readings WHERE route_task_id = $1 AND completed', [taskId]);
      if (t.started_at !== null || (done?.n ?? 0) > 0) throw conflictCode('TASK_STARTED', 'Only route tasks that have not started can be deleted.');
      await q.query('DELETE FROM route_tasks WHERE id = $1', [taskId]);
    });
    await publishTask(ctx, orgId, taskId, { deleted: true });
    return c.json(routeTaskDeletedSchema.parse({ id: taskId, deleted: true }));
  });

  // route metadata (suburb, classification) upsert; "" clears the suburb
  r.post('/organisations/:orgId/route-meta-data/:name', async (c) => {
    const { orgId, name } = routeMetadataPathSchema.parse(c.req.param());
    routeQuerySchema.parse(c.req.query());
    await requireRoutes(ctx, c, orgId, MANAGERS);
    const b = routeMetadataUpsertSchema.parse(await body(c));
    const suburb = b.suburb === undefined ? undefined : b.suburb?.trim() || null;
    const row = await one<{ route_name: string; suburb: string | null; type: RouteMetadata['type'] }>(
      ctx.db,
      `INSERT INTO route_metadata (org_id, route_name, suburb, type) VALUES ($1, $2, $3, $4)
       ON CONFLICT (org_id, route_name) DO UPDATE SET suburb = CASE WHEN $5 THEN EXCLUDED.suburb ELSE route_metadata.suburb END,
                                                      type = CASE WHEN $6 THEN EXCLUDED.type ELSE route_metadata.type END
       RETURNING route_name, suburb, type`,
      [orgId, name, suburb ?? null, b.type ?? null, suburb !== undefined, b.type !== undefined],
    );
    return c.json(routeMetadataSchema.parse({ routeName: row!.route_name, suburb: row!.suburb, type: row!.type }));
  });

  // the readings of a task (a meter reader: only of a task assigned to them)
  r.get(`${task}/meter-readings`, async (c) => {
    const { orgId, taskId } = routeTaskPathSchema.parse(c.req.param());
    routeQuerySchema.parse(c.req.query());
    const { role, userId } = await requireRoutes(ctx, c, orgId, ALL_ROUTE_ROLES);
    const t = await getTask(ctx.db, orgId, taskId);
    if (role === ROLE.METER_READER && t.assignedTo?.cognitoIdentityId !== userId) throw taskNotFound();
    const readings = await fairShareOf(ctx.config).run(userId, orgId, () => listReadings(ctx.db, orgId, taskId));
    return c.json(meterReadingListSchema.parse({ task: t, readings }));
  });

  // edit a reading (admins and owner): only changed fields, NOTHING_UPDATED otherwise
  r.patch(reading, async (c) => {
    const { orgId, taskId, readingId } = meterReadingPathSchema.parse(c.req.param());
    routeQuerySchema.parse(c.req.query());
    await requireRoutes(ctx, c, orgId, MANAGERS);
    const b = meterReadingPatchSchema.parse(await body(c));
    if (b.id !== undefined && b.id !== readingId) throw badRequest('READING_MISMATCH', 'id must be the reading of the path.');
    await ctx.db.tx((q) => editReading(q, orgId, taskId, readingId, b, ctx.now()));
    await publishTask(ctx, orgId, taskId, { readingId });
    return c.json(await answer(orgId, taskId, readingId));
  });

  // record a reading: the user the task is assigned to only; an Idempotency-Key makes a retry answer the first result
  r.put(`${reading}/record`, routeBodyLimit(RECORD_BODY_LIMIT), async (c) => {
    const { orgId, taskId, readingId } = meterReadingPathSchema.parse(c.req.param());
    routeQuerySchema.parse(c.req.query());
    const { userId } = await requireRoutes(ctx, c, orgId, ALL_ROUTE_ROLES);
    const header = c.req.header(IDEMPOTENCY_KEY_HEADER);
    const key = header === undefined ? undefined : idempotencyKeySchema.safeParse(header);
    if (key && !key.success) throw badRequest(ROUTE_ERROR_CODES.INVALID_IDEMPOTENCY_KEY, `${IDEMPOTENCY_KEY_HEADER} must be 8 to 128 letters, digits or . _ : -`);
    const b = meterReadingRecordSchema.parse(await body(c));
    const { answer: recorded, replayed } = await recordReading(ctx, { orgId, taskId, readingId, userId, body: b, idempotencyKey: key?.data });
    if (replayed) c.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    else await publishTask(ctx, orgId, taskId, { readingId });
    return c.json(meterReadingAnswerSchema.parse(recorded));
  });

  // the photo of a reading, through the gateway to members only (no public URL)
  r.get(`${reading}/photo`, async (c) => {
    const { orgId, taskId, readingId } = meterReadingPathSchema.parse(c.req.param());
    routeQuerySchema.parse(c.req.query());
    await requireRoutes(ctx, c, orgId, DATA);
    const row = await one<{ photo_url: string | null }>(
      ctx.db,
      'SELECT r.photo_url FROM meter_readings r JOIN route_tasks t ON t.id = r.route_task_id WHERE r.id = $1 AND t.id = $2 AND t.org_id = $3',
      [readingId, taskId, orgId],
    );
    const file = row?.photo_url ? await readStoredFile(ctx, orgId, row.photo_url) : undefined;
    if (!file) throw new HttpError(404, ROUTE_ERROR_CODES.PHOTO_NOT_FOUND, 'Photo not found.');
    return c.body(new Uint8Array(file.body), 200, { 'Content-Type': file.type, 'Cache-Control': 'private, max-age=3600' });
  });

  async function answer(orgId: string, taskId: string, readingId: string) {
    return meterReadingAnswerSchema.parse({ reading: await getReading(ctx.db, orgId, taskId, readingId), task: await getTask(ctx.db, orgId, taskId) });
  }

  return r;
}
