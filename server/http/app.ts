import { Hono } from 'hono';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AppContext } from '../context';
import { handleError } from './errors';
import { requireCaller, type GatewayEnv } from './auth';
import { identityRoutes } from '../identity/endpoint';
import { publicSignupRoutes, userRoutes } from '../gateway/users.routes';
import { organisationRoutes } from '../gateway/organisations.routes';
import { memberRoutes } from '../gateway/members.routes';
import { memberMfaRoutes } from '../gateway/member-mfa.routes';
import { orgDetailsRoutes } from '../gateway/org-details.routes';
import { sensorRoutes } from '../gateway/sensors.routes';
import { sensorSetupRoutes } from '../gateway/sensor-setup.routes';
import { geocodeRoutes } from '../gateway/geocode.routes';
import { measurementRoutes } from '../gateway/measurements.routes';
import { usageRoutes } from '../gateway/usage.routes';
import { notificationRoutes } from '../gateway/notifications.routes';
import { adminRoutes } from '../gateway/admin.routes';
import { downlinkTaskRoutes } from '../gateway/downlink-tasks.routes';
import { toolRoutes } from '../gateway/tools.routes';
import { liveRoutes } from '../gateway/live.routes';
import { networkIntegrationRoutes } from '../gateway/network-integrations.routes';
import { webhookTestRoutes } from '../gateway/webhook-test.routes';
import { openApiRoutes } from '../gateway/openapi';
import { pendingInvitationRoutes } from '../gateway/pending-invitations.routes';
import { routeTaskRoutes } from '../gateway/routes.routes';
import { readerRoutes } from '../gateway/reader.routes';
import { ingestRoutes } from '../ingest/ingest.routes';
import { networkRoutes } from '../networks/network.routes';
import { devRoutes } from './dev.routes';
import { clientConfig } from './client-config';
import { mapRoutes } from './map.routes';
import { adminClientErrorRoutes, publicClientErrorRoutes } from '../gateway/client-errors.routes';
import { refuseDeepJson, refuseUnstorable } from './input-guard';
import { bodyLimits } from './body-limit';
import { cspReportRoutes } from './csp-report';
import { apiFallback } from './fallback';
import { securityHeaders } from './security-headers';
import { compressJson, REVALIDATE, staticFiles } from './static-files';

/** One port: the app, the gateway, identity, ingest and (via upgrade) MQTT over WebSocket. */
export function createApp(ctx: AppContext) {
  const app = new Hono();
  app.onError(handleError);
  // outermost: every answer, refusals of the guards below included, carries the security headers
  app.use('*', securityHeaders(ctx.config));
  // first: no handler or guard reads more than the route's limit (64 KiB unless it names its own)
  app.use('*', bodyLimits());
  // JSON nested past 64 levels is a 400 before anything parses or walks it (issue 35)
  app.use('*', refuseDeepJson());
  // bad input is a 400 at the boundary (issue 9); /identity does the same in Cognito's shape
  app.use('/api/*', refuseUnstorable());
  app.use('/dev/*', refuseUnstorable());
  // JSON above 1 KiB compressed (static files come compressed from the build, see staticFiles)
  app.use('/api/*', compressJson());
  app.use('/identity/*', compressJson());
  app.use('/config.json', compressJson());
  // where browsers report what the Content-Security-Policy blocked: logged, never trusted; size- and rate-limited
  app.route('/', cspReportRoutes(ctx));

  const api = new Hono<GatewayEnv>();
  api.get('/health', async (c) => {
    const database = await ctx.db.query('SELECT 1').then(
      () => 'ok',
      () => 'down',
    );
    const broker = ctx.publisher.isReady() ? 'ok' : 'down';
    const ok = database === 'ok' && broker === 'ok';
    return c.json({ status: ok ? 'ok' : 'degraded', database, broker, driver: ctx.db.kind }, ok ? 200 : 503);
  });
  api.route('/', publicSignupRoutes(ctx));
  api.route('/', publicClientErrorRoutes(ctx));
  api.route('/', openApiRoutes(() => app.routes)); // the gateway's own documentation (issue 13)
  api.use('*', requireCaller(ctx));
  api.route('/', userRoutes(ctx));
  api.route('/', organisationRoutes(ctx));
  api.route('/', memberRoutes(ctx)).route('/', orgDetailsRoutes(ctx)); // organisation settings (issue 13)
  api.route('/', memberMfaRoutes(ctx)); // a lost authenticator reset by the owner or a site admin (issue 35)
  api.route('/', sensorRoutes(ctx));
  api.route('/', sensorSetupRoutes(ctx));
  api.route('/', geocodeRoutes(ctx));
  api.route('/', measurementRoutes(ctx));
  api.route('/', usageRoutes(ctx)); // usage and forecast beyond the spec (issue 38)
  api.route('/', notificationRoutes(ctx));
  api.route('/', adminRoutes(ctx));
  api.route('/', adminClientErrorRoutes(ctx));
  api.route('/', downlinkTaskRoutes(ctx));
  api.route('/', toolRoutes(ctx));
  api.route('/', liveRoutes(ctx));
  api.route('/', networkIntegrationRoutes(ctx));
  api.route('/', webhookTestRoutes(ctx));
  api.route('/', pendingInvitationRoutes(ctx));
  api.route('/', routeTaskRoutes(ctx)); // meter-reading service routes (issue 14)
  api.route('/', readerRoutes(ctx)); // the meter reader's app (issue 33)
  api.notFound((c) => c.json({ code: 'NOT_FOUND', message: `No route ${c.req.method} ${c.req.path}` }, 404));

  app.route('/api', api);
  app.route('/identity', identityRoutes(ctx));
  app.route('/ingest', ingestRoutes(ctx));
  app.route('/ingest', networkRoutes(ctx));
  app.route('/map', mapRoutes(ctx));
  app.route('/dev', devRoutes(ctx)); // 404 unless demo mode and a loopback client
  // revalidated every time: index.html preloads it and the client reads it with the default cache mode
  app.get('/config.json', (c) => c.json(clientConfig(ctx, new URL(c.req.url)), 200, { 'Cache-Control': REVALIDATE }));
  // what none of the routes above answers is a JSON 404 or 405 there, never the app's HTML
  app.all('/api/*', apiFallback(app));
  app.all('/identity', apiFallback(app, 'cognito'));
  app.all('/identity/*', apiFallback(app, 'cognito'));
  app.all('/ingest/*', apiFallback(app));
  app.all('/dev/*', apiFallback(app));

  const root = resolve(ctx.config.STATIC_DIR);
  if (!ctx.config.SERVE_SOURCE_MAPS) {
    // the build writes source maps; they show the whole client source, so only on request
    app.use('*', async (c, next) => (c.req.path.endsWith('.map') ? c.json({ code: 'NOT_FOUND', message: 'Not found.' }, 404) : next()));
  }
  const indexFile = join(root, 'index.html');
  // hashed build output immutable, the rest revalidated, each compressed as the browser accepts
  app.use('*', staticFiles(root));
  // a file under /assets/ that is not there (an old page asking for a chunk a new build replaced) is
  // a 404 the client's chunk-error handling sees, not the app's HTML with a year's cache lifetime
  app.get('/assets/*', (c) => c.text('Not found.', 404));
  const index = staticFiles(root, 'index.html');
  // the meter reader's app (a second entry of the build): /reader and every path under it that is
  // not a file; a missing file under /reader/ (a name with an extension) is a 404, not the page, so a
  // service worker precaching a wrong address fails to install instead of storing the page as a script
  const readerFile = join(root, 'reader.html');
  const reader = staticFiles(root, 'reader.html');
  app.use('*', async (c, next) => {
    if ((c.req.method !== 'GET' && c.req.method !== 'HEAD') || !/^\/reader(?:\/|$)/.test(c.req.path)) return next();
    if (/\/[^/]+\.[A-Za-z0-9]+$/.test(c.req.path)) return c.text('Not found.', 404);
    if (!existsSync(readerFile)) return c.text('The client is not built: run `npm run build` (npm start does it for you).', 503);
    return reader(c, next);
  });
  // history fallback: every other GET is a client route
  app.use('*', async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    if (!existsSync(indexFile)) return c.text('The client is not built: run `npm run build` (npm start does it for you).', 503);
    return index(c, next);
  });
  return app;
}
