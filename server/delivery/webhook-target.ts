import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

/**
 * Webhooks must not become a way to reach the server's own network (SSRF): loopback, private,
 * link-local, carrier-grade NAT, multicast and reserved ranges are refused unless the deployment
 * allows them (WEBHOOK_ALLOW_PRIVATE_NETWORKS, e.g. for a receiver on the same machine).
 */
const internal = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  internal.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  internal.addSubnet(net, bits, 'ipv6');

export const WEBHOOK_TARGET_MESSAGE = 'Webhook URLs must point to a public internet address.';

/** Whether an IP address is one webhooks may be sent to. */
export function isPublicAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip); // IPv4-mapped IPv6
  if (mapped) return isPublicAddress(mapped[1]);
  const family = isIP(ip);
  if (family === 0) return false;
  return !internal.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();

/** The check that needs no DNS (when saving): literal internal addresses and localhost names. */
export function isPlainlyInternal(url: string): boolean {
  const host = hostOf(url);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && !isPublicAddress(host);
}

/** Before each delivery: every address the host resolves to must be public. Throws otherwise. */
export async function assertPublicTarget(url: string): Promise<void> {
  if (isPlainlyInternal(url)) throw new Error(WEBHOOK_TARGET_MESSAGE);
  const host = hostOf(url);
  if (isIP(host)) return;
  const addrs = await lookup(host, { all: true, verbatim: true });
  if (addrs.length === 0 || addrs.some((a) => !isPublicAddress(a.address))) throw new Error(`${WEBHOOK_TARGET_MESSAGE} (${host} resolves to an internal address)`);
}
