import { z } from 'zod';

const bool = (dflt: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(dflt ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

const url = (protocols: string[]) =>
  z
    .string()
    .url()
    .refine((v) => protocols.some((p) => v.startsWith(`${p}:`)), { message: `must start with ${protocols.join(': or ')}:` });

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url(['postgres', 'postgresql']).optional(),
  MQTT_URL: url(['mqtt', 'mqtts', 'ws', 'wss', 'tcp']).optional(),
  MQTT_WS_URL: url(['ws', 'wss']).optional(), // what browsers use when MQTT_URL points elsewhere
  SMTP_URL: url(['smtp', 'smtps']).optional(),
  MAIL_FROM: z.string().default('Tidewatch <no-reply@tidewatch.local>'),
  SEED_DEMO: bool(true),
  DEMO_MODE: bool(true),
  SIMULATOR: bool(true),
  SIMULATOR_SPEED: z.coerce.number().positive().max(100_000).default(1),
  USER_POOL_ID: z.string().regex(/_/, 'must contain "_" as Cognito pool ids do').default('local_demo'),
  APP_CLIENT_ID: z.string().min(1).default('tidewatch-web'),
  PUBLIC_URL: url(['http', 'https']).optional(),
  STATIC_DIR: z.string().default('./dist'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ID_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(3600),
  MAP_STYLE_URL: z.string().optional(),
});

export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {}

/** Reads and validates the environment; a bad value throws naming every offending variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked = Object.fromEntries(Object.keys(schema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]));
  const res = schema.safeParse(picked);
  if (!res.success) {
    const lines = res.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(picked[String(i.path[0])])})`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return res.data;
}
