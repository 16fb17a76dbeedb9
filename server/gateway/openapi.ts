import { Hono } from 'hono';
import { z } from 'zod';
import { apiErrorSchema } from '../../src/contract/error.schema';
import { reauthenticateRequestSchema, recoveryCodeCountSchema, recoveryCodesSchema, createSelfRequestSchema, currentUserQuerySchema, claimSensorResponseSchema, signupResponseSchema, updateUserRequestSchema, userLookupQuerySchema, userLookupResponseSchema } from '../../src/contract/account.schema';
import { claimSensorRequestSchema, currentUserSchema, signupRequestSchema } from '../../src/contract/user.schema';
import { organisationListSchema, organisationSchema, organisationSecurityUpdateSchema } from '../../src/contract/organisation.schema';
import { memberDeleteResponseSchema, memberDeleteSchema, memberListSchema, unfinishedRouteTasksSchema, memberPatchSchema, memberQuerySchema, organisationUpdateSchema } from '../../src/contract/member.schema';
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
  access?: string;
}

const MANAGERS = 'Organisation owners and admins';
const MEMBERS = 'Members of the organisation (not meter readers)';
const SITE_ADMINS = 'Site admins';

/** Keyed by 'METHOD /path' with Hono's ':param' path. */
export const OPERATIONS: Record<string, Operation> = {
  'GET /health': { summary: 'Health of the database and the broker', tag: 'Service', unsigned: true },
  'GET /openapi.json': { summary: 'This document', tag: 'Service', unsigned: true },
  'POST /claim-sensor': { summary: 'Check that a sensor can be claimed', tag: 'Sign-up', body: claimSensorRequestSchema, response: claimSensorResponseSchema, unsigned: true },
  'POST /signup': { summary: 'Sign up with a sensor', tag: 'Sign-up', body: signupRequestSchema, response: signupResponseSchema, unsigned: true },
  'POST /client-errors': { summary: 'Report a client error', tag: 'Service', body: clientErrorReportSchema, status: 202, unsigned: true },
  'POST /create-self': { summary: 'Create the signed-in user’s profile after sign-up', tag: 'Users', body: createSelfRequestSchema, response: currentUserSchema },
  'POST /reauthenticate': { summary: 'Confirm the current password again (before turning MFA off or changing the email)', tag: 'Users', body: reauthenticateRequestSchema, status: 204, access: 'The user themself' },
  'GET /mfa/recovery-codes': { summary: 'How many unused recovery codes (for a lost authenticator) the signed-in user has', tag: 'Users', response: recoveryCodeCountSchema, access: 'The user themself' },
  'POST /mfa/recovery-codes': { summary: 'New recovery codes, shown this once (the old stop working); needs MFA on and POST /reauthenticate within 5 minutes', tag: 'Users', response: recoveryCodesSchema, access: 'The user themself' },
  'GET /users/current-v2': { summary: 'The signed-in user', tag: 'Users', query: currentUserQuerySchema, response: currentUserSchema },
  'PATCH /users/:memberId': { summary: 'Update the signed-in user (name and mobile, or display settings)', tag: 'Users', query: memberQuerySchema, body: updateUserRequestSchema, response: currentUserSchema, access: 'The user themself' },
  'GET /users': { summary: 'Whether an account has an email address (invite form)', tag: 'Users', query: userLookupQuerySchema, response: userLookupResponseSchema, access: 'Managers of any organisation' },
  'GET /organisations': { summary: 'The user’s organisations', tag: 'Organisations', response: organisationListSchema },
  'PUT /organisations/:orgId': { summary: 'Rename the organisation or change its unit, notification settings and council file encoding', tag: 'Organisations', body: organisationUpdateSchema, response: organisationSchema, access: MANAGERS },
  'PUT /organisations/:orgId/security': {
    summary: 'Require two-factor authentication of the organisation’s managers, or stop requiring it (turning it on needs the owner’s own); a manager without it is refused the organisation’s data with 403 MFA_REQUIRED',
    tag: 'Organisations',
    body: organisationSecurityUpdateSchema,
    response: organisationSchema,
    access: 'The organisation’s owner',
  },
  'GET /organisations/:orgId/members': { summary: 'Members and pending invitations', tag: 'Members', response: memberListSchema },
  'PATCH /organisations/:orgId/members/:memberId': { summary: 'Change a member’s role or notification rule', tag: 'Members', query: memberQuerySchema, body: memberPatchSchema, access: MANAGERS },
  'DELETE /organisations/:orgId/members/:memberId': { summary: 'Remove a member, or leave the organisation (own id)', tag: 'Members', query: memberQuerySchema, body: memberDeleteSchema, response: memberDeleteResponseSchema, access: `${MANAGERS}; anyone but the owner for themself` },
  'GET /organisations/:orgId/members/:memberId/unfinished-route-tasks': { summary: 'How many unfinished route tasks (neither complete nor exported) are assigned to the member: the tasks removing them or their leaving unassigns', tag: 'Members', response: unfinishedRouteTasksSchema, access: `${MANAGERS}; anyone for themself` },
  'DELETE /organisations/:orgId/invite/:email': { summary: 'Cancel an invitation', tag: 'Members', access: MANAGERS },
  'POST /organisations/:orgId/invite': { summary: 'Invite a member, or resend an invitation (resend=true)', tag: 'Members', query: inviteQuerySchema, body: inviteRequestSchema, response: inviteResponseSchema, access: MANAGERS },
  'GET /invitations': { summary: 'Invitations waiting for the signed-in user', tag: 'Members', response: pendingInvitationListSchema },
  'POST /invitations/:inviteId/:answer': { summary: 'Accept or decline an invitation', tag: 'Members', response: invitationAnswerResponseSchema },
  'GET /organisations/:orgId/sensors': { summary: 'The organisation’s sensors (view=summary: the compact rows the web client lists and maps)', tag: 'Sensors', query: sensorListQuerySchema, response: sensorListSchema, access: MEMBERS },
  'GET /organisations/:orgId/sensors/:sensorId': { summary: 'One sensor’s full record', tag: 'Sensors', response: sensorResponseSchema, access: MEMBERS },
  'POST /organisations/:orgId/add-sensor': { summary: 'Claim a sensor into the organisation', tag: 'Sensors', body: addSensorRequestSchema, response: addSensorResponseSchema, access: MANAGERS },
  'PUT /organisations/:orgId/sensors/:sensorId': { summary: 'Save a sensor’s settings', tag: 'Sensors', body: sensorUpdateRequestSchema, response: sensorUpdateResponseSchema, access: MANAGERS },
  'GET /organisations/:orgId/tank-presets': { summary: 'Tank presets', tag: 'Sensors', response: tankPresetListSchema },
  'GET /organisations/:orgId/sensors/:sensorId/fuel-install': { summary: 'The fuel installation record', tag: 'Sensors', response: fuelInstallResponseSchema },
  'GET /organisations/:orgId/sensors/:sensorId/fuel-install/photos/:photo': { summary: 'A fuel installation photo (image)', tag: 'Sensors' },
  'GET /organisations/:orgId/sensors/:sensorId/measurements': { summary: 'Measurements in a time range, paged by the `next` cursor', tag: 'Measurements', query: measurementQuerySchema, response: measurementPageSchema, access: MEMBERS },
  'GET /organisations/:orgId/sensors/:sensorId/usage': { summary: 'Usage beyond the spec: a tank’s fills, daily use and forecasts (litres), or a weir’s or flume’s flow totals (m³), computed by the data core', tag: 'Measurements', query: usageQuerySchema, response: usageSchema, access: MEMBERS },
  'GET /admin/sensors/:sensorId/measurement-errors': { summary: 'A sensor’s measurement errors', tag: 'Measurements', query: measurementErrorQuerySchema, response: measurementErrorPageSchema, access: SITE_ADMINS },
  'GET /admin/firmware': { summary: 'Firmware versions', tag: 'Sensors', response: firmwareListSchema, access: SITE_ADMINS },
  'GET /admin/client-errors': { summary: 'Reported client errors', tag: 'Service', query: clientErrorQuerySchema, response: clientErrorPageSchema, access: SITE_ADMINS },
  'GET /geocode': { summary: 'Look up a place', tag: 'Sensors', query: geocodeQuerySchema, response: geocodeResponseSchema },
  'GET /organisations/:orgId/notifications': { summary: 'Sensor notifications: without parameters the spec’s list (the newest 200); with any of type, state, sensor, limit or cursor, one page in the page’s order (type priority, newest first) with its sensors and the `next` cursor', tag: 'Notifications', query: notificationQuerySchema, response: z.union([notificationListSchema, notificationPageSchema]), access: MEMBERS },
  'POST /organisations/:orgId/notifications/test': { summary: 'Send a test notification to yourself and every webhook', tag: 'Notifications', response: testNotificationResultSchema, access: SITE_ADMINS },
  'GET /organisations/:id/integrations': { summary: 'Webhook integrations', tag: 'Integrations', query: integrationQuerySchema, response: integrationListSchema, access: MANAGERS },
  'POST /organisations/:id/integrations': { summary: 'Create a webhook', tag: 'Integrations', body: integrationInputSchema, response: integrationSchema, status: 201, access: MANAGERS },
  'PATCH /organisations/:id/integrations/:integrationId': { summary: 'Change a webhook’s URL and headers', tag: 'Integrations', body: integrationInputSchema, response: integrationSchema, access: MANAGERS },
  'DELETE /organisations/:id/integrations/:integrationId': { summary: 'Remove a webhook', tag: 'Integrations', access: MANAGERS },
  'POST /organisations/:id/integrations/:integrationId/test': { summary: 'Send a signed test event to one webhook', tag: 'Integrations', response: webhookTestResultSchema, status: 202, access: MANAGERS },
  'GET /organisations/:orgId/sensors/:sensorId/downlink-tasks': { summary: 'Remote tasks of a sensor', tag: 'Remote tasks', query: taskListQuerySchema, response: taskListSchema },
  'POST /organisations/:orgId/sensors/:sensorId/downlink-tasks': { summary: 'Queue a remote task', tag: 'Remote tasks', body: createTaskRequestSchema, response: taskResponseSchema, access: MANAGERS },
  'PATCH /organisations/:orgId/sensors/:sensorId/downlink-tasks/:taskId': { summary: 'Cancel a remote task', tag: 'Remote tasks', body: cancelTaskRequestSchema, response: taskResponseSchema, access: MANAGERS },
  'PUT /organisations/:orgId/sensors/:sensorId/pending-config': { summary: 'Set the configuration waiting for the sensor', tag: 'Remote tasks', body: pendingConfigSchema, response: pendingConfigResponseSchema, access: MANAGERS },
  'DELETE /organisations/:orgId/sensors/:sensorId/pending-config': { summary: 'Discard the waiting configuration', tag: 'Remote tasks', response: pendingConfigResponseSchema, access: MANAGERS },
  'GET /tools/server-time': { summary: 'The server’s clock', tag: 'Service', response: z.object({ millis: z.number() }) },
};

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
    const op: Operation = OPERATIONS[key] ?? { summary: `${route.method} ${path}`, tag: 'Other' };
    const openPath = path.replace(/:([A-Za-z0-9_]+)\??/g, '{$1}');
    const pathParams = [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const success: Record<string, object> = op.response
      ? { [String(op.status ?? 200)]: { description: 'Success', content: { 'application/json': { schema: jsonSchema(op.response, 'output') } } } }
      : { [String(op.status ?? 200)]: { description: 'Success' } };
    (paths[openPath] ??= {})[route.method.toLowerCase()] = {
      operationId: `${route.method.toLowerCase()}${openPath.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: op.summary,
      tags: [op.tag],
      ...(op.access ? { description: `Who may call it: ${op.access}.` } : {}),
      ...(op.unsigned ? { security: [] } : {}),
      parameters: [...pathParams, ...(op.query ? queryParameters(op.query) : [])],
      ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(op.body, 'input') } } } } : {}),
      responses: {
        ...success,
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
