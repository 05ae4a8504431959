import { describe, expect, it } from 'vitest';
import { DestinationGuard, DestinationRefused, isPublicAddress } from './destination-guard.js';

describe('isPublicAddress', () => {
  it('refuses loopback, private, link-local, CGNAT, metadata, multicast and reserved ranges', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });
  it('accepts public addresses', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPublicAddress(a), a).toBe(true);
    }
  });
});

describe('DestinationGuard', () => {
  it('checks scheme and literal addresses, honouring the allowlist', () => {
    const strict = new DestinationGuard();
    expect(() => strict.checkUrl('ftp://example.com/')).toThrow(DestinationRefused);
    expect(() => strict.checkUrl('http://127.0.0.1:8080/')).toThrow(/not a public address/);
    expect(() => strict.checkUrl('http://[::1]/')).toThrow(/not a public address/);
    expect(() => strict.checkUrl('http://localhost/')).toThrow(/not a public address/);
    expect(strict.checkUrl('https://hooks.example.com/x').hostname).toBe('hooks.example.com');

    const allowing = new DestinationGuard(['127.0.0.1', '10.0.0.0/8', 'localhost']);
    expect(allowing.checkUrl('http://127.0.0.1:8080/').port).toBe('8080');
    expect(allowing.checkUrl('http://10.9.8.7/').hostname).toBe('10.9.8.7');
    expect(allowing.checkUrl('http://localhost/').hostname).toBe('localhost');
    expect(() => allowing.checkUrl('http://192.168.0.1/')).toThrow(DestinationRefused);
  });

  it('refuses at lookup a name that resolves to a loopback address, unless allowed', async () => {
    const lookup = (guard: DestinationGuard, host: string) =>
      new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
        guard.lookup(host, {}, (err, address) => resolve({ err, address })),
      );
    const refused = await lookup(new DestinationGuard(), 'localhost');
    expect(refused.err?.code).toBe('EDESTINATIONREFUSED');
    const byName = await lookup(new DestinationGuard(['localhost']), 'localhost');
    expect(byName.err).toBeNull();
    const byAddress = await lookup(new DestinationGuard(['127.0.0.1', '::1']), 'localhost');
    expect(byAddress.err).toBeNull();
  });
});
