import { BlockList, isIP, type LookupFunction } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';

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
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translates into the operator's own network
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: tunnels to an address it hides
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['ff00::', 8], // multicast
] as const)
  internal.addSubnet(net, bits, 'ipv6');

export const WEBHOOK_TARGET_MESSAGE = 'Webhook URLs must point to a public internet address.';
export const WEBHOOK_TRAILING_DOT_MESSAGE = 'Webhook URLs must not end the host name with a dot.';

/** The eight 16-bit groups of an IPv6 address (any spelling: compressed, dotted IPv4 tail). */
function hextets(ip: string): number[] {
  const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1); // WHATWG turns a dotted tail into hex
  const [head, tail = ''] = canonical.split('::');
  const left = head ? head.split(':') : [];
  const right = canonical.includes('::') && tail ? tail.split(':') : [];
  const groups = canonical.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return groups.map((g) => parseInt(g, 16));
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 address an IPv6 address carries to, when it is one of the forms that reach IPv4:
 * mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::).
 */
function embeddedIPv4(h: number[]): string | undefined {
  const zero = (from: number, to: number) => h.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && h[5] === 0xffff) return v4(h[6], h[7]);
  if (h[0] === 0x64 && h[1] === 0xff9b && zero(2, 6)) return v4(h[6], h[7]);
  if (h[0] === 0x2002) return v4(h[1], h[2]);
  return undefined;
}

/** Whether an IP address is one webhooks may be sent to. */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return !internal.check(ip, 'ipv4');
  if (family !== 6) return false;
  const carried = embeddedIPv4(hextets(ip));
  if (carried) return isPublicAddress(carried);
  return !internal.check(ip, 'ipv6');
}

const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();

/** The check that needs no DNS (when saving): literal internal addresses and localhost names. */
export function isPlainlyInternal(url: string): boolean {
  const host = hostOf(url).replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && !isPublicAddress(host);
}

/** What is wrong with a webhook URL before any DNS, as the message to show; undefined when nothing. */
export function webhookUrlProblem(url: string, allowPrivate = false): string | undefined {
  // "example.com." is a different name to certificates, caches and the localhost rule above
  if (hostOf(url).endsWith('.')) return WEBHOOK_TRAILING_DOT_MESSAGE;
  if (!allowPrivate && isPlainlyInternal(url)) return WEBHOOK_TARGET_MESSAGE;
  return undefined;
}

export type ResolvedAddress = { address: string; family: number };
/** Name to addresses, as dns.lookup with all: true; tests pass a stub. */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;
export const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/** The addresses a connection to `host` may use: every one public (unless allowed), else a throw. */
export async function checkedAddresses(host: string, resolve: Resolver = systemResolver, allowPrivate = false): Promise<ResolvedAddress[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const addrs = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await resolve(bare);
  if (addrs.length === 0) throw new Error(`${bare} does not resolve to any address`);
  if (!allowPrivate && addrs.some((a) => !isPublicAddress(a.address))) {
    throw new Error(isIP(bare) ? WEBHOOK_TARGET_MESSAGE : `${WEBHOOK_TARGET_MESSAGE} (${bare} resolves to an internal address)`);
  }
  return addrs;
}

/**
 * A `lookup` for http.request: the connection goes to exactly the addresses that were checked,
 * so a name cannot answer a public address to the check and an internal one to the connection
 * (DNS rebinding). One resolution per connection; nothing else resolves the name.
 */
export function checkedLookup(resolve: Resolver = systemResolver, allowPrivate = false): LookupFunction {
  return (hostname, options, callback) => {
    checkedAddresses(hostname, resolve, allowPrivate).then(
      (addrs) => {
        const wanted = options.family === 4 || options.family === 6 ? addrs.filter((a) => a.family === options.family) : addrs;
        if (wanted.length === 0) return callback(Object.assign(new Error(`${hostname} has no IPv${options.family} address`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all) return callback(null, wanted);
        callback(null, wanted[0].address, wanted[0].family);
      },
      (err: Error) => callback(Object.assign(err, { code: 'ENOTFOUND' }), '', 0),
    );
  };
}

/** Before each delivery (kept for callers that only check): every address the host resolves to must be public. */
export async function assertPublicTarget(url: string, resolve: Resolver = systemResolver): Promise<void> {
  const problem = webhookUrlProblem(url);
  if (problem) throw new Error(problem);
  await checkedAddresses(hostOf(url), resolve);
}
