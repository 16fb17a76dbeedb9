import { describe, expect, it } from 'vitest';
import { assertPublicTarget, isPlainlyInternal, isPublicAddress } from './webhook-target';

describe('webhook targets are public addresses (no SSRF into the server network)', () => {
  it('refuses loopback, private, link-local, CGNAT, multicast and reserved addresses, v4 and v6', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.9', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
  });
  it('accepts public addresses', () => {
    for (const ip of ['8.8.8.8', '203.0.113.50'.replace('203.0.113', '151.101.1'), '2606:4700:4700::1111', '::ffff:1.1.1.1']) expect(isPublicAddress(ip), ip).toBe(true);
  });
  it('sees literal internal hosts and localhost names without DNS', () => {
    expect(isPlainlyInternal('http://localhost:8080/x')).toBe(true);
    expect(isPlainlyInternal('http://api.localhost/x')).toBe(true);
    expect(isPlainlyInternal('http://[::1]:9000/')).toBe(true);
    expect(isPlainlyInternal('https://169.254.169.254/latest/meta-data')).toBe(true);
    expect(isPlainlyInternal('https://hooks.example.com/a')).toBe(false);
  });
  it('refuses at delivery a name that resolves to an internal address', async () => {
    await expect(assertPublicTarget('http://localhost:5432/')).rejects.toThrow(/public internet address/);
    await expect(assertPublicTarget('http://127.0.0.1:1883/')).rejects.toThrow(/public internet address/);
    await expect(assertPublicTarget('https://8.8.8.8/hook')).resolves.toBeUndefined();
  });
});
