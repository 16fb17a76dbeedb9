import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { AppContext } from '../context';
import type { Config, TrustProxy } from '../config';
import { BlockList, isIP, isIPv6 } from 'node:net';

/** 127.0.0.0/8 and ::1, also in their IPv4-mapped IPv6 form (::ffff:127.0.0.1). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase().replace(/^::ffff:/, '');
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/** A host name (as in a URL, IPv6 in brackets) that names this machine's loopback. */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || isLoopbackAddress(h);
}

/** The socket's remote address: who is really connected to us, whatever the headers say. */
export function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

const proxyLists = new WeakMap<string[], BlockList>();
function proxyList(proxies: string[]): BlockList {
  let list = proxyLists.get(proxies);
  if (!list) {
    list = new BlockList();
    for (const p of proxies) {
      const [address, prefix] = p.split('/');
      const family = isIPv6(address) ? 'ipv6' : 'ipv4';
      if (prefix === undefined) list.addAddress(address, family);
      else list.addSubnet(address, Number(prefix), family);
    }
    proxyLists.set(proxies, list);
  }
  return list;
}

const isTrusted = (list: BlockList, address: string) => {
  const plain = address.replace(/^::ffff:(?=\d+\.)/i, ''); // an IPv4 peer on a dual-stack socket
  return isIP(plain) !== 0 && list.check(plain, isIPv6(plain) ? 'ipv6' : 'ipv4');
};

/**
 * The client's address as the trusted proxies saw it, Express's and Hono's convention: the
 * socket's peer, then X-Forwarded-For read from the right. With TRUST_PROXY=<hops> the address
 * that many entries back (the one the outermost proxy wrote); with proxy addresses, the first
 * address from the right that is not one of them. The left end is whatever the client sent, so it
 * is used only when every address after it is a trusted proxy. Without TRUST_PROXY, the socket.
 */
export function forwardedClient(socket: string | undefined, forwardedFor: string | undefined, trust: TrustProxy): string | undefined {
  if (!trust || !forwardedFor) return socket;
  const hops = [socket ?? 'unknown', ...forwardedFor.split(',').map((a) => a.trim()).filter(Boolean).reverse()];
  if ('hops' in trust) return hops[Math.min(trust.hops, hops.length - 1)];
  const list = proxyList(trust.proxies);
  let i = 0;
  while (i < hops.length - 1 && isTrusted(list, hops[i])) i++;
  return hops[i];
}

/** The client's address for rate limits and logs (forwardedClient with the request's socket and header). */
export function clientAddress(c: Context, config: Pick<Config, 'TRUST_PROXY'>): string {
  return forwardedClient(socketAddress(c), c.req.header('x-forwarded-for'), config.TRUST_PROXY) ?? 'unknown';
}

/**
 * The origin for links in emails and for /config.json. PUBLIC_URL when set. Without it the
 * request's Host header is attacker-controlled (`Host: evil.example` would aim a verification
 * link there), so it is used only in demo mode and only when it names loopback; otherwise the
 * origin the server itself listens on.
 */
export function publicOrigin(ctx: AppContext, requestUrl: string | URL): string {
  if (ctx.config.PUBLIC_URL) return new URL(ctx.config.PUBLIC_URL).origin;
  const req = new URL(requestUrl);
  if (ctx.config.DEMO_MODE && isLoopbackHostname(req.hostname)) return req.origin;
  return new URL(ctx.tokens.issuer).origin;
}
