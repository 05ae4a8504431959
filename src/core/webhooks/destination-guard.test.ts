import { describe, expect, it } from 'vitest';
import { DestinationGuard, DestinationRefused, isPublicAddress } from './destination-guard.js';

describe('isPublicAddress', () => {
  it('refuses loopback, private, link-local, CGNAT, metadata, multicast and reserved ranges', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });
  it('judges IPv6 forms that carry an IPv4 address as that address (security review: SSRF through IPv6)', () => {
    for (const a of [
      '::127.0.0.1',
      '::7f00:1',
      '::ffff:0:127.0.0.1',
      '::ffff:0:7f00:1',
      '::ffff:7f00:1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::8.8.8.8',
      '64:ff9b:1:abcd::1',
      '2002:7f00:1::',
      '2002:a00:1::1',
      '2002:c0a8:101::',
      '2001:0:4136:e378::1',
      '::10.0.0.1',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
    for (const a of ['64:ff9b::8.8.8.8', '2002:808:808::1', '::ffff:0:8.8.8.8'])
      expect(isPublicAddress(a), a).toBe(true);
    const guard = new DestinationGuard();
    for (const url of [
      'http://[::127.0.0.1]/',
      'http://[::ffff:0:127.0.0.1]:8080/',
      'http://[64:ff9b:1::1]/',
      'http://[::ffff:127.0.0.1]/',
    ]) {
      expect(() => guard.checkUrl(url), url).toThrow(/not a public address/);
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
