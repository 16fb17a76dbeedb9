import { Hono } from 'hono';
import { z } from 'zod';
import { apiErrorSchema } from '../../src/contract/error.schema';
import { reauthenticateRequestSchema, recoveryCodeCountSchema, recoveryCodesSchema, createSelfRequestSchema, currentUserQuerySchema, claimSensorResponseSchema, signupResponseSchema, updateUserRequestSchema, userLookupQuerySchema, userLookupResponseSchema } from '../../src/contract/account.schema';
import { claimSensorRequestSchema, currentUserSchema, signupRequestSchema } from '../../src/contract/user.schema';
import { organisationListSchema, organisationSchema, organisationSecurityUpdateSchema } from '../../src/contract/organisation.schema';
import { memberMfaResetResponseSchema, memberDeleteResponseSchema, memberDeleteSchema, memberListSchema, unfinishedRouteTasksSchema, memberPatchSchema, memberQuerySchema, organisationUpdateSchema } from '../../src/contract/member.schema';
import { inviteQuerySchema, inviteRequestSchema, inviteResponseSchema } from '../../src/contract/invitation.schema';
import { addSensorRequestSchema, addSensorResponseSchema, firmwareListSchema, fuelInstallResponseSchema, geocodeQuerySchema, geocodeResponseSchema, sensorListSchema, sensorResponseSchema, sensorUpdateRequestSchema, sensorUpdateResponseSchema, tankPresetListSchema } from '../../src/contract/sensor.schema';
import { measurementErrorPageSchema, measurementErrorQuerySchema, measurementPageSchema, measurementQuerySchema } from '../../src/contract/measurement.schema';
import { sensorListQuerySchema } from '../../src/contract/sensor-summary.schema';
import { usageQuerySchema, usageSchema } from '../../src/contract/usage.schema';
import { notificationListSchema, notificationPageSchema, notificationQuerySchema } from '../../src/contract/notification.schema';
import { integrationInputSchema, integrationListSchema, integrationQuerySchema, integrationSchema, testNotificationResultSchema, webhookEventSchema } from '../../src/contract/live.schema';
import { webhookTestResultSchema } from '../../src/contract/webhook-test.schema';
import { cancelTaskRequestSchema, createTaskRequestSchema, pendingConfigResponseSchema, pendingConfigSchema, taskListQuerySchema, taskListSchema, taskResponseSchema } from '../../src/contract/downlink-task.schema';
import { clientErrorPageSchema, clientErrorQuerySchema, clientErrorReportSchema } from '../../src/contract/client-error.schema';
import { invitationAnswerResponseSchema, pendingInvitationListSchema } from '../../src/contract/pending-invitation.schema';
import { SETUP_RULES } from '../../src/domain/setup-messages';

/**
 * The gateway's own API documentation (issue 13, the Integration section's link): an OpenAPI 3.1
 * document built from the routes Hono really has, with the zod contract each one parses and answers
 * with (z.toJSONSchema, draft 2020-12, which OpenAPI 3.1 uses). A route without an entry below is
 * still listed, with its path parameters; an entry without a route is dropped, so the document
 * never names a call that does not exist.
 */

type Schema = z.ZodType;
export interface Operation {
  summary: string;
  tag: string;
  query?: Schema;
  body?: Schema;
  response?: Schema;
  /** Status of the success answer (200 unless given). */
  status?: number;
  /** Unsigned calls need no ID token. */
  unsigned?: boolean;
  /** Who may call it, in words. */
  access: string;
  /** Its own 4xx answers by status, beyond those every call of its kind gives (see errorAnswers). */
  errors?: Record<number, string[]>;
}

const ANYONE = 'Anyone: no ID token';
const SIGNED_IN = 'Any signed-in user';
const SELF = 'The user themself';
const MANAGERS = 'Organisation owners and admins';
const MEMBERS = 'Members of the organisation (not meter readers)';
const ANY_MEMBER = 'Members of the organisation in any role (meter readers too)';
const SETUP = 'Organisation owners and admins, and site admins who are members';
const SITE_ADMINS = 'Site admins';
const SITE_ADMIN_MEMBERS = 'Site admins who are members of the organisation (in any role)';
const ROUTE_MANAGERS = 'Owners and admins of an organisation with meter reading';
const ROUTE_ANY = 'Members of an organisation with meter reading in any role (a meter reader: the tasks assigned to them)';
const ROUTE_DATA = 'Members, admins and owners of an organisation with meter reading (not meter readers)';
const ROUTE_ASSIGNEE = 'Members of an organisation with meter reading in any role, for a task assigned to them';
/** The 400 codes of a name, an email or a password the sign-up rules check (src/domain/sign-up-rules.ts). */
const NAME_CODES = ['INVALID_NAME'];
const ROUTE_TASK_404 = ['ROUTE_TASK_NOT_FOUND'];
/** A sensor save's refusals: each setup rule's code (src/domain/setup-messages.ts), the two clashes 409. */
const SENSOR_SAVE_409 = ['SENSOR_NAME_EXISTS_IN_ORGANISATION', 'INTEGRATION_POINT_ID_ALREADY_IN_USE'];
const SENSOR_SAVE_400 = Object.keys(SETUP_RULES).filter((code) => !SENSOR_SAVE_409.includes(code));
const READING_404 = ['ROUTE_TASK_NOT_FOUND', 'METER_READING_NOT_FOUND'];
const IMPORT_400 = ['ORGANISATION_MISMATCH', 'DUPLICATE_METERS', 'SOME_METERS_NOT_FOUND', 'SOME_METER_READINGS_NOT_FOUND'];

/** Keyed by 'METHOD /path' with Hono's ':param' path. */
export const OPERATIONS: Record<string, Operation> = {
  'GET /health': { summary: 'Health of the database and the broker', tag: 'Service', unsigned: true, access: ANYONE },
  'GET /openapi.json': { summary: 'This document', tag: 'Service', unsigned: true, access: ANYONE },
  'POST /claim-sensor': { summary: 'Check that a sensor can be claimed', tag: 'Sign-up', body: claimSensorRequestSchema, response: claimSensorResponseSchema, unsigned: true, access: ANYONE, errors: { 400: ['INVALID_SERIAL', 'INVALID_CLAIM_CODE'], 429: ['TOO_MANY_REQUESTS'] } },
  'POST /signup': { summary: 'Sign up with a sensor', tag: 'Sign-up', body: signupRequestSchema, response: signupResponseSchema, unsigned: true, access: ANYONE, errors: { 400: ['INVALID_SERIAL', 'INVALID_CLAIM_CODE', 'INVALID_ORG_NAME', 'INVALID_EMAIL', 'INVALID_EMAIL_CONFIRMATION', 'INVALID_PASSWORD', 'INVALID_PASSWORD_CONFIRMATION', 'INVALID_NAME'], 429: ['TOO_MANY_REQUESTS'] } },
  'POST /client-errors': { summary: 'Report a client error', tag: 'Service', body: clientErrorReportSchema, status: 201, unsigned: true, access: ANYONE, errors: { 413: ['PAYLOAD_TOO_LARGE'], 429: ['TOO_MANY_REQUESTS'] } },
  'POST /create-self': { summary: 'Create the signed-in user’s profile after sign-up', tag: 'Users', body: createSelfRequestSchema, response: currentUserSchema, access: `${SIGNED_IN}, for their own profile`, errors: { 400: NAME_CODES, 404: ['USER_NOT_FOUND'] } },
  'POST /reauthenticate': { summary: 'Confirm the current password again (before turning MFA off, changing the email, making recovery codes or resetting a member’s MFA)', tag: 'Users', body: reauthenticateRequestSchema, status: 204, access: 'The user themself', errors: { 403: ['INCORRECT_PASSWORD'], 429: ['TOO_MANY_REQUESTS'] } },
  'GET /mfa/recovery-codes': { summary: 'How many unused recovery codes (for a lost authenticator) the signed-in user has', tag: 'Users', response: recoveryCodeCountSchema, access: 'The user themself' },
  'POST /mfa/recovery-codes': { summary: 'New recovery codes, shown this once (the old stop working); needs MFA on and POST /reauthenticate within 5 minutes', tag: 'Users', response: recoveryCodesSchema, access: 'The user themself', errors: { 403: ['REAUTHENTICATION_REQUIRED'], 404: ['USER_NOT_FOUND'], 409: ['MFA_NOT_ON'] } },
  'GET /users/current-v2': { summary: 'The signed-in user', tag: 'Users', query: currentUserQuerySchema, response: currentUserSchema, access: SELF, errors: { 403: ['FORBIDDEN'], 404: ['USER_NOT_FOUND'] } },
  'PATCH /users/:memberId': { summary: 'Update the signed-in user (name and mobile, or display settings)', tag: 'Users', query: memberQuerySchema, body: updateUserRequestSchema, response: currentUserSchema, access: 'The user themself', errors: { 400: [...NAME_CODES, 'INVALID_MOBILE'], 403: ['FORBIDDEN'], 404: ['USER_NOT_FOUND'] } },
  'GET /users': { summary: 'Whether an account has an email address (invite form)', tag: 'Users', query: userLookupQuerySchema, response: userLookupResponseSchema, access: 'Owners and admins of any organisation', errors: { 400: ['INVALID_EMAIL'], 403: ['FORBIDDEN'], 429: ['TOO_MANY_REQUESTS'] } },
  'GET /organisations': { summary: 'The user’s organisations', tag: 'Organisations', response: organisationListSchema, access: `${SIGNED_IN}: the organisations they belong to` },
  'PUT /organisations/:orgId': { summary: 'Rename the organisation or change its unit, notification settings and council file encoding', tag: 'Organisations', body: organisationUpdateSchema, response: organisationSchema, access: MANAGERS, errors: { 400: ['INVALID_ORG_NAME'], 409: ['SLUG_TAKEN'] } },
  'PUT /organisations/:orgId/security': {
    summary: 'Require two-factor authentication of the organisation’s managers, or stop requiring it (turning it on needs the owner’s own); a manager without it is refused the organisation’s data with 403 MFA_REQUIRED',
    tag: 'Organisations',
    body: organisationSecurityUpdateSchema,
    response: organisationSchema,
    access: 'The organisation’s owner',
    errors: { 409: ['MFA_NOT_SET_UP'] },
  },
  'GET /organisations/:orgId/members': { summary: 'Members and pending invitations', tag: 'Members', response: memberListSchema, access: `${ANY_MEMBER}; whether each has MFA on only for the owner and site admins` },
  'PATCH /organisations/:orgId/members/:memberId': { summary: 'Change a member’s role or notification rule', tag: 'Members', query: memberQuerySchema, body: memberPatchSchema, access: MANAGERS, errors: { 400: ['MEMBER_MISMATCH', 'INVALID_ROLE'], 403: ['CANNOT_ACT_ON_SELF', 'OWNER_ROLE_FIXED'], 404: ['MEMBER_NOT_FOUND'] } },
  'DELETE /organisations/:orgId/members/:memberId': { summary: 'Remove a member, or leave the organisation (own id)', tag: 'Members', query: memberQuerySchema, body: memberDeleteSchema, response: memberDeleteResponseSchema, access: `${MANAGERS}; anyone but the owner for themself`, errors: { 400: ['MEMBER_MISMATCH'], 403: ['OWNER_CANNOT_LEAVE', 'OWNER_PROTECTED'], 404: ['MEMBER_NOT_FOUND'] } },
  'POST /organisations/:orgId/members/:memberId/reset-mfa': {
    summary: 'Reset a member’s lost authenticator: their TOTP secret and recovery codes are deleted and they are told by email; where their role requires MFA, the next sign-in sets one up again. Needs POST /reauthenticate within 5 minutes on the caller’s sign-in',
    tag: 'Members',
    response: memberMfaResetResponseSchema,
    access: `The organisation’s owner, for a member other than themself and not a site admin; ${SITE_ADMINS} for anyone but themself`,
    errors: { 403: ['SITE_ADMIN_PROTECTED', 'CANNOT_ACT_ON_SELF', 'REAUTHENTICATION_REQUIRED'], 404: ['MEMBER_NOT_FOUND'], 409: ['MFA_NOT_SET_UP'] },
  },
  'GET /organisations/:orgId/members/:memberId/unfinished-route-tasks': { summary: 'How many unfinished route tasks (neither complete nor exported) are assigned to the member: the tasks removing them or their leaving unassigns', tag: 'Members', response: unfinishedRouteTasksSchema, access: `${MANAGERS}; anyone for themself`, errors: { 404: ['MEMBER_NOT_FOUND'] } },
  'DELETE /organisations/:orgId/invite/:email': { summary: 'Cancel an invitation', tag: 'Members', access: MANAGERS, errors: { 404: ['INVITATION_NOT_FOUND'] } },
  'POST /organisations/:orgId/invite': { summary: 'Invite a member, or resend an invitation (resend=true)', tag: 'Members', query: inviteQuerySchema, body: inviteRequestSchema, response: inviteResponseSchema, access: MANAGERS, errors: { 400: ['INVALID_EMAIL', 'INVALID_NAME', 'INVALID_MOBILE', 'INVALID_ROLE', 'ALREADY_A_MEMBER', 'ALREADY_INVITED'], 404: ['INVITATION_NOT_FOUND'], 429: ['TOO_MANY_REQUESTS'] } },
  'GET /invitations': { summary: 'Invitations waiting for the signed-in user', tag: 'Members', response: pendingInvitationListSchema, access: SELF },
  'POST /invitations/:inviteId/:answer': { summary: 'Accept or decline an invitation', tag: 'Members', response: invitationAnswerResponseSchema, access: 'The invited user themself', errors: { 404: ['INVITATION_NOT_FOUND'] } },
  'GET /organisations/:orgId/sensors': {
    summary: 'The organisation’s sensors (view=summary: the compact rows the web client lists and maps; with limit, the first rows and the total; with since, the cursor of an earlier answer, the rows changed or arrived since, the ids of those that left, and the next cursor)',
    tag: 'Sensors',
    query: sensorListQuerySchema,
    response: sensorListSchema,
    access: MEMBERS,
    // an unknown view; limit or since without view=summary, both together, or not a whole number in range
    errors: { 400: ['INVALID_QUERY'] },
  },
  'GET /organisations/:orgId/sensors/:sensorId': { summary: 'One sensor’s full record, by its id or its serial', tag: 'Sensors', response: sensorResponseSchema, access: MEMBERS, errors: { 404: ['SENSOR_NOT_FOUND'] } },
  'POST /organisations/:orgId/add-sensor': { summary: 'Claim a sensor into the organisation', tag: 'Sensors', body: addSensorRequestSchema, response: addSensorResponseSchema, access: MANAGERS, errors: { 400: ['INVALID_SERIAL', 'INVALID_CLAIM_CODE'] } },
  'PUT /organisations/:orgId/sensors/:sensorId': { summary: 'Save a sensor’s settings', tag: 'Sensors', body: sensorUpdateRequestSchema, response: sensorUpdateResponseSchema, access: SETUP, errors: { 400: SENSOR_SAVE_400, 404: ['SENSOR_NOT_FOUND'], 409: SENSOR_SAVE_409 } },
  'GET /organisations/:orgId/tank-presets': { summary: 'Tank presets', tag: 'Sensors', response: tankPresetListSchema, access: SETUP },
  'GET /organisations/:orgId/sensors/:sensorId/fuel-install': { summary: 'The fuel installation record', tag: 'Sensors', response: fuelInstallResponseSchema, access: SETUP, errors: { 404: ['SENSOR_NOT_FOUND'] } },
  'GET /organisations/:orgId/sensors/:sensorId/fuel-install/photos/:photo': { summary: 'A fuel installation photo (image)', tag: 'Sensors', access: SETUP, errors: { 404: ['SENSOR_NOT_FOUND', 'PHOTO_NOT_FOUND'] } },
  'GET /organisations/:orgId/sensors/:sensorId/measurements': { summary: 'Measurements in a time range, paged by the `next` cursor', tag: 'Measurements', query: measurementQuerySchema, response: measurementPageSchema, access: MEMBERS, errors: { 400: ['INVALID_QUERY', 'INVALID_CURSOR'], 404: ['SENSOR_NOT_FOUND'] } },
  'GET /organisations/:orgId/sensors/:sensorId/usage': { summary: 'Usage beyond the spec: a tank’s fills, daily use and forecasts (litres), or a weir’s or flume’s flow totals (m³), computed by the data core', tag: 'Measurements', query: usageQuerySchema, response: usageSchema, access: MEMBERS, errors: { 400: ['INVALID_QUERY'], 404: ['SENSOR_NOT_FOUND'] } },
  'GET /admin/sensors/:sensorId/measurement-errors': { summary: 'A sensor’s measurement errors', tag: 'Measurements', query: measurementErrorQuerySchema, response: measurementErrorPageSchema, access: SITE_ADMINS, errors: { 400: ['INVALID_CURSOR', 'INVALID_DATE_RANGE'], 404: ['SENSOR_NOT_FOUND'] } },
  'GET /admin/firmware': { summary: 'Firmware versions', tag: 'Sensors', response: firmwareListSchema, access: SITE_ADMINS },
  'GET /admin/client-errors': { summary: 'Reported client errors, newest first, paged by the `next` cursor (start)', tag: 'Service', query: clientErrorQuerySchema, response: clientErrorPageSchema, access: SITE_ADMINS, errors: { 400: ['INVALID_CURSOR'] } },
  'GET /geocode': { summary: 'Look up a place', tag: 'Sensors', query: geocodeQuerySchema, response: geocodeResponseSchema, access: SIGNED_IN, errors: { 400: ['INVALID_QUERY', 'GEOCODER_FAILED'] } },
  'GET /organisations/:orgId/notifications': { summary: 'Sensor notifications: without parameters the spec’s list (the newest 200); with any of type, state, sensor, limit or cursor, one page in the page’s order (type priority, newest first) with its sensors and the `next` cursor', tag: 'Notifications', query: notificationQuerySchema, response: z.union([notificationListSchema, notificationPageSchema]), access: MEMBERS, errors: { 400: ['INVALID_QUERY', 'INVALID_CURSOR'] } },
  'POST /organisations/:orgId/notifications/test': { summary: 'Send a test notification to yourself and every webhook', tag: 'Notifications', response: testNotificationResultSchema, access: SITE_ADMIN_MEMBERS },
  'GET /organisations/:id/integrations': { summary: 'Webhook integrations', tag: 'Integrations', query: integrationQuerySchema, response: integrationListSchema, access: MANAGERS },
  'POST /organisations/:id/integrations': { summary: 'Create a webhook', tag: 'Integrations', body: integrationInputSchema, response: integrationSchema, status: 201, access: MANAGERS, errors: { 400: ['INVALID_INTEGRATION', 'WEBHOOK_URL_NOT_ALLOWED'] } },
  'PATCH /organisations/:id/integrations/:integrationId': { summary: 'Change a webhook’s URL and headers', tag: 'Integrations', body: integrationInputSchema, response: integrationSchema, access: MANAGERS, errors: { 400: ['INVALID_INTEGRATION', 'WEBHOOK_URL_NOT_ALLOWED'], 404: ['INTEGRATION_NOT_FOUND'] } },
  'DELETE /organisations/:id/integrations/:integrationId': { summary: 'Remove a webhook', tag: 'Integrations', access: MANAGERS, errors: { 404: ['INTEGRATION_NOT_FOUND'] } },
  'POST /organisations/:id/integrations/:integrationId/test': { summary: 'Send a signed test event to one webhook', tag: 'Integrations', response: webhookTestResultSchema, status: 202, access: MANAGERS, errors: { 404: ['INTEGRATION_NOT_FOUND'] } },
  'GET /organisations/:orgId/sensors/:sensorId/downlink-tasks': { summary: 'Remote tasks of a sensor (more than 10 completed ones: site admins only)', tag: 'Remote tasks', query: taskListQuerySchema, response: taskListSchema, access: SETUP, errors: { 404: ['SENSOR_NOT_FOUND'] } },
  'POST /organisations/:orgId/sensors/:sensorId/downlink-tasks': { summary: 'Queue a remote task (FirmwareDownload, RadarConfig and FullRadarConfig: site admins only, 403 FORBIDDEN)', tag: 'Remote tasks', body: createTaskRequestSchema, response: taskResponseSchema, access: SETUP, errors: { 400: ['REMOTE_TASKS_NOT_SUPPORTED', 'SENSOR_SCHEDULER_DISABLED', 'FIRMWARE_TOO_OLD', 'TASK_TYPE_NOT_ALLOWED', 'INVALID_TASK_PARAMS', 'UNCHANGED'], 403: ['RADAR_CONFIG_NOT_IN_PRODUCTION'], 404: ['SENSOR_NOT_FOUND'], 409: ['TASK_LIMIT_REACHED', 'DUPLICATE_ALARM_CONFIG_TASK', 'ALARM_SETTINGS_CONFLICT'] } },
  'PATCH /organisations/:orgId/sensors/:sensorId/downlink-tasks/:taskId': { summary: 'Cancel a remote task', tag: 'Remote tasks', body: cancelTaskRequestSchema, response: taskResponseSchema, access: SETUP, errors: { 404: ['SENSOR_NOT_FOUND', 'TASK_NOT_FOUND'], 409: ['TASK_NOT_CANCELABLE'] } },
  'PUT /organisations/:orgId/sensors/:sensorId/pending-config': { summary: 'Set the configuration waiting for the sensor', tag: 'Remote tasks', body: pendingConfigSchema, response: pendingConfigResponseSchema, access: SETUP, errors: { 400: ['INVALID_TASK_PARAMS'], 404: ['SENSOR_NOT_FOUND'] } },
  'DELETE /organisations/:orgId/sensors/:sensorId/pending-config': { summary: 'Discard the waiting configuration', tag: 'Remote tasks', response: pendingConfigResponseSchema, access: SETUP, errors: { 404: ['SENSOR_NOT_FOUND'] } },
  'GET /tools/server-time': { summary: 'The server’s clock', tag: 'Service', response: z.object({ millis: z.number() }), access: SIGNED_IN },
  'GET /organisations/:orgId/sensors/:sensorId/radar-settings': { summary: 'A radar sensor’s settings and whether a full radar configuration task is queued', tag: 'Remote tasks', access: SITE_ADMIN_MEMBERS, errors: { 403: ['RADAR_CONFIG_NOT_IN_PRODUCTION'], 404: ['SENSOR_NOT_FOUND'] } },
  'GET /organisations/:id/network-integrations': { summary: 'The Sigfox and Myriota callbacks of the organisation, with their secrets', tag: 'Integrations', access: MANAGERS },
  'POST /organisations/:id/network-integrations/:network/regenerate': { summary: 'A new secret for a radio network’s callback (the old one stops working at once)', tag: 'Integrations', access: MANAGERS, errors: { 400: ['INVALID_NETWORK'] } },
  'GET /organisations/:orgId/routes': { summary: 'Service route tasks', tag: 'Service routes', access: ROUTE_ANY },
  'POST /organisations/:orgId/routes': { summary: 'Import route files', tag: 'Service routes', access: ROUTE_MANAGERS, errors: { 400: IMPORT_400, 413: ['PAYLOAD_TOO_LARGE'] } },
  'POST /organisations/:orgId/special-routes': { summary: 'Import a special route', tag: 'Service routes', access: ROUTE_MANAGERS, errors: { 400: IMPORT_400, 413: ['PAYLOAD_TOO_LARGE'] } },
  'PATCH /organisations/:orgId/routes/:taskId': { summary: 'Change a route task (assignee, status)', tag: 'Service routes', access: ROUTE_MANAGERS, errors: { 400: ['INVALID_ASSIGNEE'], 404: ROUTE_TASK_404 } },
  'DELETE /organisations/:orgId/routes/:taskId': { summary: 'Delete a route task', tag: 'Service routes', access: ROUTE_MANAGERS, errors: { 404: ROUTE_TASK_404, 409: ['TASK_STARTED'] } },
  'POST /organisations/:orgId/route-meta-data/:name': { summary: 'Import route metadata (suburbs, classifications)', tag: 'Service routes', access: ROUTE_MANAGERS },
  'GET /organisations/:orgId/routes/:taskId/meter-readings': { summary: 'A route task’s meter readings', tag: 'Service routes', access: ROUTE_ANY, errors: { 404: ROUTE_TASK_404 } },
  'PATCH /organisations/:orgId/routes/:taskId/meter-readings/:readingId': { summary: 'Edit a meter reading', tag: 'Service routes', access: ROUTE_MANAGERS, errors: { 400: ['READING_MISMATCH', 'INVALID_READING', 'NOTHING_UPDATED'], 404: READING_404, 409: ['TASK_EXPORTED', 'READING_NOT_COMPLETED'] } },
  'PUT /organisations/:orgId/routes/:taskId/meter-readings/:readingId/record': { summary: 'Record a meter reading (idempotent by Idempotency-Key)', tag: 'Service routes', access: ROUTE_ASSIGNEE, errors: { 400: ['INVALID_IDEMPOTENCY_KEY', 'INVALID_READING', 'INVALID_PHOTO'], 403: ['NOT_ASSIGNED'], 404: READING_404, 409: ['TASK_EXPORTED', 'READING_ALREADY_RECORDED'], 413: ['PAYLOAD_TOO_LARGE'], 422: ['IDEMPOTENCY_KEY_REUSED'] } },
  'GET /organisations/:orgId/routes/:taskId/meter-readings/:readingId/photo': { summary: 'A meter reading’s photo', tag: 'Service routes', access: ROUTE_DATA, errors: { 404: [...READING_404, 'PHOTO_NOT_FOUND'] } },
  'GET /organisations/:orgId/reader/tasks': { summary: 'The reader app’s tasks', tag: 'Service routes', access: ROUTE_ANY },
  'GET /organisations/:orgId/reader/tasks/:taskId': { summary: 'One task for the reader app, with its readings', tag: 'Service routes', access: ROUTE_ASSIGNEE, errors: { 403: ['NOT_ASSIGNED'], 404: ROUTE_TASK_404 } },
};

/**
 * The 4xx answers of an operation, by status, with their codes: the refusals every call of its kind
 * gives (a bad body or query, no valid token, the tenant rule of an organisation's routes, the
 * meter-reading feature, a site admin's routes), then the operation's own.
 */
export function errorAnswers(method: string, path: string, op: Operation): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  const add = (status: number, ...codes: string[]) => (out[status] ??= []).push(...codes.filter((c) => !out[status]!.includes(c)));
  const orgScoped = /^\/organisations\/:(orgId|id)\b/.test(path);
  const otherParams = [...path.matchAll(/:([A-Za-z0-9_]+)/g)].some((m) => m[1] !== 'orgId' && m[1] !== 'id');
  // the service routes' writes read JSON their own way (files, records): no body schema here
  const readsJson = !!op.body || (op.tag === 'Service routes' && method !== 'GET' && method !== 'DELETE');
  if (op.body || op.query || otherParams || readsJson) add(400, 'INVALID_REQUEST');
  if (readsJson) add(400, 'INVALID_JSON');
  if (orgScoped) add(400, 'INVALID_ID');
  if (!op.unsigned) add(401, 'UNAUTHORIZED');
  if (orgScoped) {
    if (op.access !== ANY_MEMBER && op.access !== ROUTE_ANY && op.access !== ROUTE_ASSIGNEE) add(403, 'FORBIDDEN');
    add(403, 'MFA_REQUIRED');
    add(404, 'ORGANISATION_NOT_FOUND');
  }
  if (path.includes('/routes') || path.includes('/route-meta-data') || path.includes('/reader/')) add(404, 'FEATURE_NOT_ENABLED');
  if (path.startsWith('/admin/')) add(403, 'FORBIDDEN', 'MFA_REQUIRED');
  for (const [status, codes] of Object.entries(op.errors ?? {})) add(Number(status), ...codes);
  return out;
}

const jsonSchema = (schema: Schema, io: 'input' | 'output') => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  return rest;
};

/** Query parameters of an object schema, each with its own schema and whether it is required. */
function queryParameters(schema: Schema) {
  const json = jsonSchema(schema, 'input') as { properties?: Record<string, object>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({ name, in: 'query', required: (json.required ?? []).includes(name), schema: s }));
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The OpenAPI 3.1 document of the given routes (Hono's app.routes, paths under /api). */
export function openApiDocument(routes: readonly { method: string; path: string }[], serverUrl = '/api') {
  const paths: Record<string, Record<string, object>> = {};
  const seen = new Set<string>();
  for (const route of routes) {
    if (!route.path.startsWith('/api/') || !(METHODS as readonly string[]).includes(route.method)) continue;
    const path = route.path.slice(4).replace(/\/$/, '') || '/';
    const key = `${route.method} ${path}`;
    if (seen.has(key) || path.includes('*')) continue;
    seen.add(key);
    const op: Operation = OPERATIONS[key] ?? { summary: `${route.method} ${path}`, tag: 'Other', access: 'Not documented' };
    const openPath = path.replace(/:([A-Za-z0-9_]+)\??/g, '{$1}');
    const pathParams = [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const success: Record<string, object> = op.response
      ? { [String(op.status ?? 200)]: { description: 'Success', content: { 'application/json': { schema: jsonSchema(op.response, 'output') } } } }
      : { [String(op.status ?? 200)]: { description: 'Success' } };
    (paths[openPath] ??= {})[route.method.toLowerCase()] = {
      operationId: `${route.method.toLowerCase()}${openPath.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: op.summary,
      tags: [op.tag],
      description: `Who may call it: ${op.access}.`,
      ...(op.unsigned ? { security: [] } : {}),
      parameters: [...pathParams, ...(op.query ? queryParameters(op.query) : [])],
      ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(op.body, 'input') } } } } : {}),
      responses: {
        ...success,
        ...Object.fromEntries(
          Object.entries(errorAnswers(route.method, path, op)).map(([status, codes]) => [
            status,
            { description: `Codes: ${codes.join(', ')}`, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
          ]),
        ),
        default: { description: 'An error: 400 bad input, 401 no valid token, 403 missing role, 404 not found or not a member, 409 conflict, 429 too many requests', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tidewatch gateway',
      version: '1',
      description:
        'Every call except the unsigned ones carries the Cognito-compatible ID token from /identity in the Authorization header. Answers are JSON; an error answer is {code, message}. Webhook events are POSTed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature: v1, base64 HMAC-SHA256 of "id.timestamp.body" keyed by the base64 part of the whsec_ secret).',
    },
    servers: [{ url: serverUrl }],
    security: [{ idToken: [] }],
    components: {
      securitySchemes: { idToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The ID token (JWT) from the identity service' } },
      schemas: { Error: jsonSchema(apiErrorSchema, 'output') },
    },
    paths,
    // what Tidewatch sends to a webhook integration (OpenAPI 3.1's outgoing calls)
    webhooks: {
      event: {
        post: {
          summary: 'An alert was triggered or cleared, or a test event was sent',
          tags: ['Webhooks'],
          parameters: [
            { name: 'webhook-id', in: 'header', required: true, schema: { type: 'string' }, description: 'Constant across retries of one event: de-duplicate on it' },
            { name: 'webhook-timestamp', in: 'header', required: true, schema: { type: 'string' }, description: 'Unix seconds when this attempt was signed' },
            { name: 'webhook-signature', in: 'header', required: true, schema: { type: 'string' }, description: 'v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}" keyed by the base64 part of the whsec_ secret shown in the Webhooks settings>' },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(webhookEventSchema, 'output') } } },
          responses: { '200': { description: 'Any 2xx answer acknowledges the event; anything else is retried with backoff' } },
        },
      },
    },
  };
}

/** GET /api/openapi.json, unsigned: the document of the app's routes as they are when it is asked for. */
export function openApiRoutes(routes: () => readonly { method: string; path: string }[]) {
  const r = new Hono();
  let cached: object | undefined;
  r.get('/openapi.json', (c) => c.json((cached ??= openApiDocument(routes()))));
  return r;
}
