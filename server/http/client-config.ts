import type { AppContext } from '../context';
import { publicOrigin } from './origin';

/** The client's runtime configuration: one build serves any deployment. */
export function clientConfig(ctx: AppContext, requestUrl: URL) {
  const origin = publicOrigin(ctx, requestUrl);
  const wsOrigin = origin.replace(/^http/, 'ws');
  return {
    auth: {
      userPoolId: ctx.config.USER_POOL_ID,
      userPoolClientId: ctx.config.APP_CLIENT_ID,
      userPoolEndpoint: `${origin}/identity`,
      // the forgot-password form cannot promise a code when unknown addresses are answered alike
      preventUserExistenceErrors: ctx.config.PREVENT_USER_EXISTENCE_ERRORS,
    },
    api: { endpoint: `${origin}/api` },
    mqtt: { url: ctx.config.MQTT_WS_URL ?? `${wsOrigin}/mqtt` },
    map: {
      styles: {
        roadmap: ctx.config.MAP_STYLE_URL ?? `${origin}/map/style.json`,
        satellite: ctx.config.MAP_STYLE_URL ?? `${origin}/map/style.json`,
        hybrid: ctx.config.MAP_STYLE_URL ?? `${origin}/map/style.json`,
        terrain: ctx.config.MAP_STYLE_URL ?? `${origin}/map/style.json`,
      },
    },
    demo: ctx.config.DEMO_MODE,
    stage: ctx.config.STAGE,
    clientErrors: { sampleRate: ctx.config.CLIENT_ERROR_SAMPLE_RATE },
  };
}
