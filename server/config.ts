import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';
import { pmtilesProblem } from './http/pmtiles-file';

const bool = (dflt: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(dflt ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optBool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1' || v === 'yes'));

const url = (protocols: string[]) =>
  z
    .string()
    .url()
    .refine((v) => protocols.some((p) => v.startsWith(`${p}:`)), { message: `must start with ${protocols.join(': or ')}:` });

/** Where X-Forwarded-For may be believed: so many proxy hops, or these proxy addresses and subnets. */
export type TrustProxy = { hops: number } | { proxies: string[] } | undefined;

const ADDRESS_OR_SUBNET = (v: string) => {
  const [address, prefix, ...rest] = v.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
};

const trustProxy = z
  .string()
  .optional()
  .transform((v, rc): TrustProxy => {
    const value = v?.trim().toLowerCase();
    if (!value || value === 'false' || value === 'no' || value === '0') return undefined;
    if (/^\d+$/.test(value) && Number(value) <= 16) return { hops: Number(value) };
    if (value === 'true' || value === 'yes') {
      rc.addIssue({ code: 'custom', message: 'must say how many proxies are in front of the server (e.g. 1) or list their addresses: "true" would believe the client-written left end of X-Forwarded-For' });
      return z.NEVER;
    }
    const proxies = value.split(',').map((a) => a.trim()).filter(Boolean);
    const bad = proxies.filter((a) => !ADDRESS_OR_SUBNET(a));
    if (bad.length) {
      rc.addIssue({ code: 'custom', message: `must be a number of proxy hops (0 to 16) or proxy addresses and subnets such as 10.0.0.5,10.1.0.0/16 (not ${bad.join(', ')})` });
      return z.NEVER;
    }
    return { proxies };
  });

export const STAGES = ['development', 'production'] as const;
export type Stage = (typeof STAGES)[number];

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url(['postgres', 'postgresql']).optional(),
  STORAGE_DIR: z.string().min(1).optional(), // files (installation photos); default DATA_DIR/storage
  MQTT_URL: url(['mqtt', 'mqtts', 'ws', 'wss', 'tcp']).optional(),
  MQTT_WS_URL: url(['ws', 'wss']).optional(), // what browsers use when MQTT_URL points elsewhere
  // the shared subscription group of device uplinks on the external broker: every process of one
  // deployment uses the same group; another deployment (or a test) on the same broker uses its own
  // how long the broker keeps a stopped process's ingest sessions (MQTT 5 session expiry): a process
  // back within it takes what the broker kept for it; one gone for good stops being handed uplinks then
  MQTT_INGEST_SESSION_EXPIRY_S: z.coerce.number().int().min(1).max(604_800).default(300),
  MQTT_INGEST_GROUP: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1 to 64 letters, digits, ".", "_" or "-"').default('tidewatch-ingest'),
  SMTP_URL: url(['smtp', 'smtps']).optional(),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: bool(false), // allow webhooks to loopback and private addresses
  CLIENT_ERROR_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(0.1), // share of browser errors reported (monitoring-client 9)
  MAIL_FROM: z.string().default('Tidewatch <no-reply@tidewatch.local>'),
  // demo mode (demo world and /dev/mailbox) is for the embedded default only: unset, it is on
  // unless DATABASE_URL is set or NODE_ENV=production; SEED_DEMO unset follows DEMO_MODE
  SEED_DEMO: optBool,
  DEMO_MODE: optBool,
  NODE_ENV: z.string().optional(),
  // the deployment stage (sensor-setup 2: the Radar Config section is hidden in production); unset,
  // production when DATABASE_URL is set or NODE_ENV=production, development for the embedded demo
  STAGE: z.enum(STAGES).optional(),
  // behind reverse proxies: how many there are (TRUST_PROXY=1) or their addresses (10.0.0.5,10.1.0.0/16);
  // the client address is taken from X-Forwarded-For counted from the right, never its client-written left end
  TRUST_PROXY: trustProxy,
  SERVE_SOURCE_MAPS: bool(false), // serve the client's *.map files
  // identity limits: operations per minute per client address and per target account, and
  // password hashes (scrypt, 128 MiB each) run at once
  // Cognito's "prevent user existence errors": a password reset for an unknown address answers as for a
  // known one (no email goes out); off, it answers UserNotFoundException and the client says so
  PREVENT_USER_EXISTENCE_ERRORS: bool(true),
  // the identity API's SignUp (self-service accounts, which tells taken addresses apart); off, as Cognito's
  // "allow only administrators to create users": the app's own sign-up is POST /api/signup
  IDENTITY_SELF_SIGN_UP: bool(false),
  IDENTITY_RATE_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(300),
  IDENTITY_RATE_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(60),
  CSP_CONNECT_SRC: z.string().optional(), // more origins the browser may connect to (map tiles, space-separated)
  USER_LOOKUPS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(20), // GET /users?email= per manager
  INVITATIONS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(50), // new invitations per organisation in any hour
  // fair shares of heavy work (measurement pages, route imports, reading lists): at once per user and
  // per organisation, waiting per user before 429, and the resident memory above which it is refused with 503
  HEAVY_PER_USER: z.coerce.number().int().min(1).max(64).default(2),
  HEAVY_PER_ORG: z.coerce.number().int().min(1).max(256).default(4),
  HEAVY_WAITING_PER_USER: z.coerce.number().int().min(0).max(1000).default(32),
  MEMORY_CEILING_MB: z.coerce.number().int().min(64).max(1_048_576).default(1536),
  HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  // encrypts TOTP secrets at rest; without it a key kept in the database (server_secrets) is used
  MFA_SECRET_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 random bytes in base64 (openssl rand -base64 32)')
    .optional(),
  // how long a claimed outbox row stays hidden from other processes: a killed process's deliveries come back after it
  OUTBOX_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
  SIMULATOR: bool(true),
  SIMULATOR_SPEED: z.coerce.number().positive().max(100_000).default(1),
  USER_POOL_ID: z.string().regex(/_/, 'must contain "_" as Cognito pool ids do').default('local_demo'),
  APP_CLIENT_ID: z.string().min(1).default('tidewatch-web'),
  PUBLIC_URL: url(['http', 'https']).optional(),
  // HTTPS without a proxy in front: the certificate chain and its private key (PEM files); the
  // server then speaks HTTP/2 to browsers, and HTTP/1.1 (WebSockets on /mqtt, devices) on the same port
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  STATIC_DIR: z.string().default('./dist'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ID_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(3600),
  // one MapLibre style per map type (monitoring-client 2.8: Hybrid, Roadmap, Satellite, Terrain); a type
  // without one is not offered. Roadmap falls back to the street map of MAP_PMTILES_PATH, then to the
  // offline style; MAP_STYLE_URL is the older name of MAP_STYLE_URL_ROADMAP
  MAP_STYLE_URL: url(['http', 'https']).optional(),
  MAP_STYLE_URL_ROADMAP: url(['http', 'https']).optional(),
  MAP_STYLE_URL_HYBRID: url(['http', 'https']).optional(),
  MAP_STYLE_URL_SATELLITE: url(['http', 'https']).optional(),
  MAP_STYLE_URL_TERRAIN: url(['http', 'https']).optional(),
  // a PMTiles v3 archive of vector tiles in the Protomaps basemap layout (the operator's region):
  // served at /map/streets.pmtiles with range requests, drawn as the Roadmap street map
  MAP_PMTILES_PATH: z.string().min(1).optional(),
  // Myriota's message signature (docs/device-protocol.md): verify (the default outside the embedded demo) or off;
  // certificates are fetched from security.myriota.com, or read from this directory (named as in CertificateUrl)
  MYRIOTA_SIGNATURE: z.enum(['verify', 'off']).optional(),
  MYRIOTA_CERTIFICATE_DIR: z.string().min(1).optional(),
  // street-address search: a Nominatim server's base URL, or a Photon server's endpoint ending in /api; unset: the bundled gazetteer (places only)
  GEOCODER_URL: url(['http', 'https']).optional(),
  // SMS through Twilio's Messages API; without these, SMS stay in the outbox (readable at /dev/mailbox)
  TWILIO_ACCOUNT_SID: z.string().regex(/^AC[0-9a-zA-Z]{8,}$/, 'must look like a Twilio account SID (AC...)').optional(),
  TWILIO_AUTH_TOKEN: z.string().min(8).optional(),
  TWILIO_API_URL: url(['http', 'https']).optional(), // default https://api.twilio.com
  TWILIO_FROM: z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number such as +6421000000').optional(),
});

const SMS_VARS = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const;
const TLS_VARS = ['TLS_CERT_FILE', 'TLS_KEY_FILE'] as const;

/** Why a TLS certificate or key file cannot be used, or null: it must be readable and in PEM form. */
function pemProblem(path: string): string | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
  return /-----BEGIN [A-Z ]+-----/.test(text) ? null : 'is not a PEM file (no -----BEGIN ...----- line)';
}

/** Demo mode's and the stage's defaults: the embedded database outside production is the demo, in development. */
function withDemoDefaults(c: z.output<typeof schema>): Config {
  const embedded = !c.DATABASE_URL && c.NODE_ENV !== 'production';
  const DEMO_MODE = c.DEMO_MODE ?? embedded;
  return {
    ...c,
    DEMO_MODE,
    SEED_DEMO: c.SEED_DEMO ?? DEMO_MODE,
    STAGE: c.STAGE ?? (embedded ? 'development' : 'production'),
    MYRIOTA_SIGNATURE: c.MYRIOTA_SIGNATURE ?? (embedded ? 'off' : 'verify'),
  };
}

export type Config = Omit<z.output<typeof schema>, 'DEMO_MODE' | 'SEED_DEMO' | 'STAGE' | 'MYRIOTA_SIGNATURE'> & {
  DEMO_MODE: boolean;
  SEED_DEMO: boolean;
  STAGE: Stage;
  MYRIOTA_SIGNATURE: 'verify' | 'off';
};

export class ConfigError extends Error {}

/** Reads and validates the environment; a bad value throws naming every offending variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked = Object.fromEntries(Object.keys(schema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]));
  const res = schema.superRefine((c, rc) => {
    // settings that come as a set (SMS; HTTPS's certificate and key): a partial set is a mistake, not a reason to stay silent
    const asASet = (vars: readonly (keyof typeof c)[], why = '') => {
      if (!vars.some((k) => c[k]) || vars.every((k) => c[k])) return;
      for (const k of vars) if (!c[k]) rc.addIssue({ code: 'custom', path: [k], message: `is required with ${vars.filter((v) => c[v]).join(' and ')}${why}` });
    };
    asASet(SMS_VARS);
    asASet(TLS_VARS, ' (HTTPS needs both the certificate and its key)');
    if (c.MAP_PMTILES_PATH) {
      const problem = pmtilesProblem(c.MAP_PMTILES_PATH);
      if (problem) rc.addIssue({ code: 'custom', path: ['MAP_PMTILES_PATH'], message: problem });
      if (c.MAP_STYLE_URL_ROADMAP || c.MAP_STYLE_URL) {
        rc.addIssue({ code: 'custom', path: ['MAP_PMTILES_PATH'], message: `is drawn as the Roadmap map, which ${c.MAP_STYLE_URL_ROADMAP ? 'MAP_STYLE_URL_ROADMAP' : 'MAP_STYLE_URL'} names too: set one of them` });
      }
    }
    if (c.MAP_STYLE_URL && c.MAP_STYLE_URL_ROADMAP) {
      rc.addIssue({ code: 'custom', path: ['MAP_STYLE_URL'], message: 'names the Roadmap style as MAP_STYLE_URL_ROADMAP does: set one of them' });
    }
    for (const k of TLS_VARS) {
      const problem = c[k] && pemProblem(c[k]);
      if (problem) rc.addIssue({ code: 'custom', path: [k], message: problem });
    }
    // with a shared database several processes may run: tokens must name one issuer, not each process's own address
    if (c.DATABASE_URL && !c.PUBLIC_URL) {
      rc.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: 'is required with DATABASE_URL (the one address every server process is reached at; tokens name it as their issuer)' });
    }
  }).safeParse(picked);
  if (!res.success) {
    const lines = res.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(picked[String(i.path[0])])})`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return withDemoDefaults(res.data);
}

/** Every environment variable the configuration reads (docs/configuration.md lists each; tests/docs checks it). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.shape);
