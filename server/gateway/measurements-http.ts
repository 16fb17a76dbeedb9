import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context';
import { ROLE, type Role } from '../http/auth';
import { rawHeader } from '../http/raw-header';
import { securityHeaderList } from '../http/security-headers';
import { verifyTokenUnrevoked } from '../identity/tokens';
import { PAGE_HEADERS, pageAnswer, pageForm, parseQuery, readMeasurements } from './measurements.routes';
import { appHeaders, sendAnswer } from '../http/direct-answer';
import { fairShareOf } from '../http/fair-share';
import { mfaMissingSql } from '../http/mfa-rule';

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const PATH = new RegExp(`^/api/organisations/(${UUID})/sensors/(${UUID})/measurements\\?([^#]*)$`);
const KEYS = new Set(['order', 'startTime', 'endTime', 'format', 'start', 'limit']);
/** Query values that need no decoding: numbers, words, base64url cursors. */
const PLAIN = /^[A-Za-z0-9_-]*$/;
const DATA_ROLES: readonly Role[] = [ROLE.MEMBER, ROLE.ADMIN, ROLE.OWNER];
interface Checked {
  revoked_at: number | null;
  known: boolean;
  role: Role;
  sensor_exists: boolean;
  mfa_missing: boolean;
}

/** The query as Hono's c.req.query() gives it, when every key is one of the route's, once, with a plain value; else null. */
function plainQuery(search: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const part of search.split('&')) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    if (!KEYS.has(key) || key in out || !PLAIN.test(value)) return null;
    out[key] = value;
  }
  return out;
}

/**
 * `GET /api/organisations/{orgId}/sensors/{sensorId}/measurements` straight on Node's request
 * (issue 10, benchmark 6: the chart's year is 25 of these, and the server answers them one at a
 * time). The same work as the route in measurements.routes.ts with the app's middleware, in one
 * statement instead of three (PGlite runs one statement at a time): the revocation of the
 * caller's sign-in, the membership and the sensor's organisation, and the page where they pass.
 * It answers only the plain case: a caller whose token verifies, whose sign-in stands, who holds
 * a data role in the organisation, which holds the sensor, with a valid query of the route's own
 * keys (plain values, each once). Anything else (every refusal, every error, other methods and
 * paths) goes to the app, which answers it as before, in the same order; the answer here has the
 * app's status, headers and body. A middleware added to the app that must apply to this route (a
 * header, a check, a log line) must be added here as well (as for ingest-http.ts).
 */
export function measurementsListener(ctx: AppContext): (req: IncomingMessage, res: ServerResponse, app: () => void) => boolean {
  const fixed: [string, string][] = [...securityHeaderList(ctx.config), ...Object.entries(PAGE_HEADERS)];

  const answer = async (req: IncomingMessage, res: ServerResponse, orgId: string, sensorId: string, raw: Record<string, string>, authorization: string): Promise<boolean> => {
    let q;
    try {
      q = parseQuery(raw);
    } catch {
      return false;
    }
    const token = authorization.replace(/^Bearer\s+/i, '').trim();
    const caller = await verifyTokenUnrevoked(ctx.db, ctx.key, ctx.tokens, token, 'id').catch(() => null);
    if (!caller) return false;
    const form = pageForm(rawHeader(req, 'accept'), q);
    // one statement: the sign-in's revocation, the membership and the sensor's organisation, and the page where they pass
    const guard = {
      columns: `(SELECT revoked_at FROM refresh_tokens WHERE jti = $5) AS revoked_at, EXISTS (SELECT 1 FROM refresh_tokens WHERE jti = $5) AS known,
                (SELECT role FROM memberships WHERE org_id = $6 AND user_id = $7) AS role, EXISTS (SELECT 1 FROM sensors s WHERE s.id = $1 AND s.org_id = $6) AS sensor_exists,
                EXISTS (SELECT 1 FROM memberships m WHERE m.org_id = $6 AND m.user_id = $7 AND ${mfaMissingSql('m')}) AS mfa_missing`,
      pass: `guard.known AND COALESCE(guard.revoked_at, 0) = 0 AND guard.role IN (${DATA_ROLES.join(', ')}) AND guard.sensor_exists AND NOT guard.mfa_missing`,
      params: [caller.origin, orgId, caller.payload.sub],
    };
    // the caller's fair share of heavy work (as the app's route); a refusal is the app's to answer
    const release = await fairShareOf(ctx.config).acquire(caller.payload.sub, orgId.toLowerCase()).catch(() => null);
    if (!release) return false;
    const { page: p, next, checked: c } = await readMeasurements<Checked>(ctx.db, sensorId.toLowerCase(), q, form, guard).finally(release);
    // as verifyToken, requireMemberWithSensor and the route decide, in their order; any refusal is the app's to answer
    if (!c || !c.known || c.revoked_at || !DATA_ROLES.includes(c.role) || !c.sensor_exists || c.mfa_missing) return false;
    const { body, type } = pageAnswer(form, p, next);
    sendAnswer(res, 200, appHeaders([...fixed, ['content-type', type]]), body);
    return true;
  };

  return (req, res, app) => {
    if (req.method !== 'GET') return false;
    const m = PATH.exec(req.url ?? '');
    const raw = m && plainQuery(m[3]);
    const authorization = raw && rawHeader(req, 'authorization');
    if (!m || !raw || !authorization) return false;
    answer(req, res, m[1], m[2], raw, authorization).then(
      (done) => done || app(),
      () => app(), // a failure (the database's) is the app's to answer: it tries again and answers as before
    );
    return true;
  };
}
