import { describe, expect, it } from 'vitest';
import { forwardedClient } from './origin';
import { ConfigError, loadConfig } from '../config';

const trust = (value: string) => loadConfig({ TRUST_PROXY: value }).TRUST_PROXY;

describe('TRUST_PROXY: X-Forwarded-For counted from the right (issue 35)', () => {
  it('takes the address the outermost trusted proxy saw, never the client-written left end', () => {
    // client -> proxy A -> us: A appends what it saw; whatever the client wrote stays on the left
    expect(forwardedClient('10.0.0.1', '198.51.100.7', trust('1'))).toBe('198.51.100.7');
    expect(forwardedClient('10.0.0.1', '1.2.3.4, 198.51.100.7', trust('1'))).toBe('198.51.100.7');
    expect(forwardedClient('10.0.0.1', '1.2.3.4, 5.6.7.8, 198.51.100.7', trust('1'))).toBe('198.51.100.7');
    // two proxies: the second from the right
    expect(forwardedClient('10.0.0.2', 'forged, 198.51.100.7, 10.0.0.1', trust('2'))).toBe('198.51.100.7');
    // fewer entries than hops: the furthest there is (Express's rule)
    expect(forwardedClient('10.0.0.2', '198.51.100.7', trust('3'))).toBe('198.51.100.7');
    // several headers arrive joined with commas
    expect(forwardedClient('10.0.0.1', '1.2.3.4,198.51.100.7', trust('1'))).toBe('198.51.100.7');
  });

  it('with proxy addresses, the first address from the right that is not a proxy', () => {
    const proxies = trust('10.0.0.1, 10.1.0.0/16, 2001:db8::/32');
    expect(forwardedClient('10.0.0.1', 'forged, 198.51.100.7', proxies)).toBe('198.51.100.7');
    expect(forwardedClient('10.0.0.1', 'forged, 198.51.100.7, 10.1.4.4', proxies)).toBe('198.51.100.7');
    expect(forwardedClient('::ffff:10.0.0.1', 'forged, 198.51.100.7', proxies)).toBe('198.51.100.7');
    expect(forwardedClient('2001:db8::5', 'forged, 2001:db9::1', proxies)).toBe('2001:db9::1');
    // a peer that is not a proxy: its header is not believed at all
    expect(forwardedClient('203.0.113.9', '198.51.100.7', proxies)).toBe('203.0.113.9');
    // a client-written entry that looks like a proxy is skipped only where a proxy would be
    expect(forwardedClient('10.0.0.1', '198.51.100.7, 10.0.0.1', proxies)).toBe('198.51.100.7');
  });

  it('off (unset, 0, false): the socket, whatever the header says', () => {
    for (const v of ['', '0', 'false', 'no']) expect(forwardedClient('203.0.113.9', '198.51.100.7', loadConfig({ TRUST_PROXY: v }).TRUST_PROXY)).toBe('203.0.113.9');
    expect(forwardedClient('203.0.113.9', '198.51.100.7', loadConfig({}).TRUST_PROXY)).toBe('203.0.113.9');
  });

  it('refuses "true" (it would believe the client) and values that are neither hops nor addresses', () => {
    expect(() => trust('true')).toThrow(/TRUST_PROXY: must say how many proxies are in front of the server/);
    expect(() => trust('yes')).toThrow(ConfigError);
    expect(() => trust('10.0.0.1, proxy.internal')).toThrow(/not proxy\.internal/);
    expect(() => trust('10.0.0.0/33')).toThrow(ConfigError);
    expect(() => trust('99')).toThrow(ConfigError);
    expect(trust('2')).toEqual({ hops: 2 });
    expect(trust('10.0.0.1,10.1.0.0/16')).toEqual({ proxies: ['10.0.0.1', '10.1.0.0/16'] });
  });
});
