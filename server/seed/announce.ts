import type { AppContext } from '../context';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-people';
import { DEMO_SENSORS } from './demo-sensors';

/**
 * Tells whoever started the server how to get in: one structured log line, and a readable block
 * on stdout with the accounts and the demo sensors still waiting to be claimed.
 */
export async function announceDemoWorld(ctx: AppContext, seededMs?: number) {
  const serials = DEMO_SENSORS.map((s) => s.serial);
  const rows = await ctx.db.query<{ serial: string; claim_code: string }>(
    'SELECT serial, claim_code FROM sensors WHERE org_id IS NULL AND serial = ANY($1::text[]) ORDER BY serial',
    [serials],
  );
  const unclaimed = rows.map((r) => ({ serial: r.serial, claimCode: r.claim_code }));
  const accounts = DEMO_ACCOUNTS.map((a) => a.email);
  ctx.log.info({ accounts, unclaimed, ...(seededMs !== undefined ? { seededMs } : {}) }, 'Demo world ready');
  if (!ctx.log.isLevelEnabled('info')) return;
  const lines = [
    '',
    `  Demo world${seededMs !== undefined ? ` seeded in ${(seededMs / 1000).toFixed(1)} s` : ''}. Sign in with any of these, password ${DEMO_PASSWORD}`,
    ...DEMO_ACCOUNTS.map((a) => `    ${a.email.padEnd(22)} ${a.what}`),
    unclaimed.length ? '  Unclaimed sensors (serial, claim code) for sign-up and Add Sensor:' : '  Every demo sensor has been claimed.',
    ...unclaimed.map((u) => `    ${u.serial.padEnd(10)} ${u.claimCode}`),
    '',
  ];
  console.log(lines.join('\n'));
}
