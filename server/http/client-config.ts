import type { Config } from '../config';
import type { AppContext } from '../context';
import { publicOrigin } from './origin';

/** The map types a deployment may offer besides Roadmap, each with its own style variable. */
const OPTIONAL_MAP_TYPES = { hybrid: 'MAP_STYLE_URL_HYBRID', satellite: 'MAP_STYLE_URL_SATELLITE', terrain: 'MAP_STYLE_URL_TERRAIN' } as const;
type MapStyles = { roadmap: string } & Partial<Record<keyof typeof OPTIONAL_MAP_TYPES, string>>;

/**
 * Each map type's MapLibre style. Roadmap is always offered: the configured style, else the street
 * map of the PMTiles archive at MAP_PMTILES_PATH, else the offline style (land, sea, borders and
 * place names, which is all it honestly draws). Hybrid, Satellite and Terrain only when configured.
 */
export function mapStyles(config: Config, origin: string): MapStyles {
  const roadmap = config.MAP_STYLE_URL_ROADMAP ?? config.MAP_STYLE_URL ?? (config.MAP_PMTILES_PATH ? `${origin}/map/streets/style.json` : `${origin}/map/style.json`);
  const styles: MapStyles = { roadmap };
  for (const type of ['hybrid', 'satellite', 'terrain'] as const) {
    const url = config[OPTIONAL_MAP_TYPES[type]];
    if (url) styles[type] = url;
  }
  return styles;
}

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
    map: { styles: mapStyles(ctx.config, origin) },
    demo: ctx.config.DEMO_MODE,
    stage: ctx.config.STAGE,
    clientErrors: { sampleRate: ctx.config.CLIENT_ERROR_SAMPLE_RATE },
  };
}
