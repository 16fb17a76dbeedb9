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
  STORAGE_DIR: z.string().min(1).optional(), // files (installation photos); default DATA_DIR/storage
  MQTT_URL: url(['mqtt', 'mqtts', 'ws', 'wss', 'tcp']).optional(),
  MQTT_WS_URL: url(['ws', 'wss']).optional(), // what browsers use when MQTT_URL points elsewhere
  SMTP_URL: url(['smtp', 'smtps']).optional(),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: bool(false), // allow webhooks to loopback and private addresses
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
  GEOCODER_URL: url(['http', 'https']).optional(), // a Nominatim server for address search; unset: the bundled gazetteer
  // SMS through Twilio's Messages API; without these, SMS stay in the outbox (readable at /dev/mailbox)
  TWILIO_ACCOUNT_SID: z.string().regex(/^AC[0-9a-zA-Z]{8,}$/, 'must look like a Twilio account SID (AC...)').optional(),
  TWILIO_AUTH_TOKEN: z.string().min(8).optional(),
  TWILIO_API_URL: url(['http', 'https']).optional(), // default https://api.twilio.com
  TWILIO_FROM: z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number such as +6421000000').optional(),
});

const SMS_VARS = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const;

export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {}

/** Reads and validates the environment; a bad value throws naming every offending variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked = Object.fromEntries(Object.keys(schema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]));
  const res = schema.superRefine((c, rc) => {
    // SMS settings come as a set: a partial set is a mistake, not a reason to stay silent
    if (SMS_VARS.some((k) => c[k]) && !SMS_VARS.every((k) => c[k])) {
      for (const k of SMS_VARS) if (!c[k]) rc.addIssue({ code: 'custom', path: [k], message: `is required with ${SMS_VARS.filter((v) => c[v]).join(' and ')}` });
    }
  }).safeParse(picked);
  if (!res.success) {
    const lines = res.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(picked[String(i.path[0])])})`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return res.data;
}
