import dns from 'node:dns';
import net from 'node:net';
import { english, t, type Text } from '../i18n/catalogue.js';

/**
 * Refuses webhook destinations that resolve to loopback, private, link-local, carrier-grade NAT,
 * multicast, reserved or cloud-metadata addresses, unless an operator allows them
 * (`WEBHOOK_ALLOWED_HOSTS`: host names, IP addresses or CIDR ranges). The check is on the resolved
 * address at connection time (see `lookup`), so a name that resolves differently later
 * (DNS rebinding) is still checked.
 */

const blocked = new net.BlockList();
for (const [subnet, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(subnet, prefix, 'ipv4');
}
for (const [subnet, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translates into the operator's own network
  ['100::', 64],
  ['2001::', 32], // Teredo: tunnels to an address hidden in the bits
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(subnet, prefix, 'ipv6');
}

/** Names that mean this machine or a cloud's metadata service whatever a resolver says. */
const LOCAL_NAMES = new Set([
  'localhost',
  'localhost.localdomain',
  'ip6-localhost',
  'ip6-loopback',
  'metadata',
  'metadata.google.internal',
  'instance-data',
]);

/** A destination the guard refuses; `text` says why (a predicate of the URL, from the catalogue). */
export class DestinationRefused extends Error {
  constructor(readonly text: Text) {
    super(english(text));
    this.name = 'DestinationRefused';
  }
}

function family(address: string): 'ipv4' | 'ipv6' | null {
  const v = net.isIP(address);
  return v === 4 ? 'ipv4' : v === 6 ? 'ipv6' : null;
}

/** The eight 16-bit words of a valid IPv6 address (`::` expanded, a trailing dotted quad folded in). */
function ipv6Words(address: string): number[] {
  let text = address.toLowerCase().split('%')[0];
  const tail: number[] = [];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, dotted.index);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const [left, right] = text.split('::');
  const head = left ? left.split(':') : [];
  const rest = right ? right.split(':') : [];
  const zeros = right === undefined ? [] : new Array(8 - tail.length - head.length - rest.length).fill('0');
  return [...head, ...zeros, ...rest].map((w) => parseInt(w, 16)).concat(tail);
}

/**
 * The IPv4 address an IPv6 address carries, in every form that reaches an IPv4 host: mapped
 * (::ffff:a.b.c.d), compatible (::a.b.c.d), translated (::ffff:0:a.b.c.d), well-known NAT64
 * (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::). Such an address is judged as that IPv4 address,
 * so `[::127.0.0.1]` is loopback and `64:ff9b::8.8.8.8` is public.
 */
function embeddedIpv4(address: string): string | null {
  const w = ipv6Words(address);
  const zero = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  const quad = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  if (zero(0, 5) && (w[5] === 0xffff || w[5] === 0)) return quad(w[6], w[7]);
  if (zero(0, 4) && w[4] === 0xffff && w[5] === 0) return quad(w[6], w[7]);
  if (w[0] === 0x64 && w[1] === 0xff9b && zero(2, 6)) return quad(w[6], w[7]);
  if (w[0] === 0x2002) return quad(w[1], w[2]);
  return null;
}

/** An address as it is judged: IPv6 forms that carry an IPv4 address become that address. */
function normalize(address: string): string {
  return net.isIPv6(address) ? (embeddedIpv4(address) ?? address) : address;
}

export function isPublicAddress(address: string): boolean {
  const a = normalize(address);
  const f = family(a);
  if (!f) return false;
  return !blocked.check(a, f);
}

export class DestinationGuard {
  private readonly hosts = new Set<string>();
  private readonly ranges = new net.BlockList();

  /** `allowed`: entries of WEBHOOK_ALLOWED_HOSTS (host names, addresses, CIDR ranges). */
  constructor(allowed: readonly string[] = []) {
    for (const raw of allowed) {
      const entry = raw.trim().toLowerCase();
      if (!entry) continue;
      const [addr, bits] = entry.split('/');
      const f = family(addr);
      if (f && bits !== undefined) this.ranges.addSubnet(addr, Number(bits), f);
      else if (f) this.ranges.addAddress(addr, f);
      else this.hosts.add(entry);
    }
  }

  private addressAllowed(address: string): boolean {
    const a = normalize(address);
    const f = family(a);
    if (!f) return false;
    return this.ranges.check(a, f) || isPublicAddress(a);
  }

  /**
   * Why the literal host (a name or an address, no DNS) may not be reached, or null: an address
   * that is not public (IPv6 forms carrying an IPv4 address judged as that address), or a name
   * that always means this machine or a cloud's metadata service, with or without its trailing dot
   * (`localhost.`, `a.localhost.`). Hosts listed in WEBHOOK_ALLOWED_HOSTS pass.
   */
  hostProblem(rawHost: string): Text | null {
    const host = rawHost
      .replace(/^\[|\]$/g, '')
      .toLowerCase()
      .replace(/\.+$/, '');
    if (this.hosts.has(host) || this.hosts.has(`${host}.`)) return null;
    if (family(host))
      return this.addressAllowed(host) ? null : t('destination %{host} is not a public address', { host });
    if (host === '' || LOCAL_NAMES.has(host) || host.endsWith('.localhost'))
      return t('destination %{host} is not a public address', { host: host || rawHost });
    return null;
  }

  /** Refuses a URL that is not http(s), or whose literal host is not allowed (`hostProblem`). */
  checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new DestinationRefused('not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new DestinationRefused('only http and https URLs are allowed');
    const problem = this.hostProblem(url.hostname);
    if (problem) throw new DestinationRefused(problem);
    return url;
  }

  /**
   * Refuses a bare host (an SMTP server's): read as a URL's host would be, so numeric forms
   * (`2130706433`, `0x7f.1`) are the addresses they stand for.
   */
  checkHost(raw: string): string {
    const bare = raw.trim().replace(/^\[|\]$/g, '');
    let host: string;
    try {
      host = new URL(`http://${net.isIPv6(bare) ? `[${bare}]` : bare}/`).hostname;
    } catch {
      throw new DestinationRefused('not a valid host name');
    }
    const problem = this.hostProblem(host);
    if (problem) throw new DestinationRefused(problem);
    return host.replace(/^\[|\]$/g, '');
  }

  /**
   * A `lookup` for the HTTP client's connections: resolves the name, then refuses it unless the
   * host name is allowed or every address it resolved to is.
   */
  readonly lookup = (
    hostname: string,
    options: dns.LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
  ): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as dns.LookupAddress[];
      const byName = this.hosts.has(hostname.toLowerCase().replace(/\.+$/, ''));
      const refused = list.find((a) => !byName && !this.addressAllowed(a.address));
      if (refused || list.length === 0) {
        const e = new DestinationRefused(
          refused
            ? t('destination %{host} resolves to %{address}, which is not a public address', {
                host: hostname,
                address: refused.address,
              })
            : t('destination %{host} resolves to nothing, which is not a public address', { host: hostname }),
        ) as NodeJS.ErrnoException;
        e.code = 'EDESTINATIONREFUSED';
        return callback(e, []);
      }
      if (options.all) return callback(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  };
}
