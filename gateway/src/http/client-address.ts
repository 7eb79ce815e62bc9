import { isIP, isIPv4, isIPv6 } from 'node:net';

/**
 * Which proxies in front of the gateway may say who the client is (Express's `trust proxy`):
 * a hop count, or the addresses and ranges of the proxies. Anything else in X-Forwarded-For
 * is the client's own claim and is ignored, so a client cannot pick its rate-limit bucket.
 */
export type TrustProxy = number | string[];

/** Today's default: only a proxy on this machine (the embedded default, a sidecar). */
export const defaultTrustProxy: TrustProxy = ['loopback'];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const isCidrOrAddress = (entry: string): boolean => {
  const [address, prefix, ...extra] = entry.split('/');
  if (extra.length || !address || !isIP(address)) return false;
  if (prefix === undefined) return true;
  if (isIPv4(address) && isIPv4(prefix)) return true; // 10.0.0.0/255.0.0.0, as proxy-addr accepts
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (isIPv4(address) ? 32 : 128);
};

/**
 * Reads TRUST_PROXY: `2` (trust that many hops, e.g. a cloud load balancer then the ingress), or
 * `10.0.0.0/8, fd00::/8, loopback` (trust proxies at those addresses). `true` (trust every hop)
 * is refused: it would let any client choose its address by sending X-Forwarded-For.
 * Throws with a message that describes the expected form (never the value itself).
 */
export function parseTrustProxy(raw: string): TrustProxy {
  const value = raw.trim();
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 32) throw new Error('a hop count must be between 0 and 32');
    return hops;
  }
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (!entries.length || !entries.every((e) => NAMED_RANGES.has(e) || isCidrOrAddress(e))) {
    throw new Error(
      'expected a hop count, or a comma-separated list of IP addresses, CIDR ranges, loopback, linklocal or uniquelocal',
    );
  }
  return entries;
}

/** The eight 16-bit groups of an IPv6 address (zone id dropped), or undefined when it is not one. */
function ipv6Groups(ip: string): number[] | undefined {
  let text = ip.split('%')[0]!;
  if (!isIPv6(text)) return undefined;
  const tail: number[] = [];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, -dotted[0].length);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const hex = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const front = hex(head);
  const back = [...hex(rest), ...tail];
  const zeros = rest === undefined ? [] : new Array<number>(8 - front.length - back.length).fill(0);
  return [...front, ...zeros, ...back];
}

/**
 * The rate-limit bucket of a client address. An IPv4 client is its address (also when it arrives
 * IPv4-mapped, ::ffff:a.b.c.d, on a dual-stack socket). An IPv6 client is its /64: one
 * subscriber usually holds a whole /64, so counting single addresses would give them 2^64 buckets.
 */
export function clientBucketOf(ip: string | undefined): string {
  if (!ip) return 'unknown';
  if (isIPv4(ip)) return ip;
  const groups = ipv6Groups(ip);
  if (!groups) return ip;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
