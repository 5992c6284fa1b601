/**
 * Which addresses an HTTP task may not reach unless `service.http-task.allow-private-networks` is
 * on: loopback, link-local (cloud metadata services live there), private, unique-local, carrier
 * NAT, unspecified, reserved and multicast ranges (IANA's special-purpose registries, RFC 6890).
 *
 * An IPv6 address that carries an IPv4 one is judged by that IPv4 address, whichever way it is
 * written (`::ffff:127.0.0.1`, `::ffff:7f00:1`, `0:0:0:0:0:ffff:7f00:1` all parse to the same
 * groups): IPv4-mapped, IPv4-compatible (deprecated, RFC 4291 §2.5.5.1), IPv4-translated
 * (RFC 2765), NAT64's well-known prefix (RFC 6052), 6to4 (RFC 3056) and Teredo (RFC 4380).
 * Ranges are matched with node's `BlockList`; the IPv6 text is parsed here only to find the
 * embedded IPv4 address.
 */
import { BlockList, isIP } from 'node:net';

type Range = readonly [network: string, prefix: number];

/**
 * Left out on purpose: documentation and benchmarking ranges (proxies in fake-IP mode resolve every
 * public name into 198.18.0.0/15).
 */
const V4_RANGES: Record<string, Range[]> = {
  'unspecified ("this network")': [['0.0.0.0', 8]],
  private: [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
  ],
  'carrier-grade NAT': [['100.64.0.0', 10]],
  loopback: [['127.0.0.0', 8]],
  'link-local': [['169.254.0.0', 16]],
  // 192.0.0.0/24: IETF protocol assignments (DS-Lite, NAT64 discovery), inside a network only.
  reserved: [
    ['192.0.0.0', 24],
    ['240.0.0.0', 4],
  ],
  multicast: [['224.0.0.0', 4]],
};

/** Checked after the embedded IPv4 forms, so `::/8` here is what is left of it; first match names it. */
const V6_RANGES: Record<string, Range[]> = {
  // RFC 8215 local-use NAT64: the translator is the operator's, so any IPv4 behind it may be inside.
  'local-use NAT64': [['64:ff9b:1::', 48]],
  reserved: [['::', 8]],
  'unique local': [['fc00::', 7]],
  'link-local': [['fe80::', 10]],
  'site-local (deprecated)': [['fec0::', 10]],
  multicast: [['ff00::', 8]],
};

const blockLists = (ranges: Record<string, Range[]>, type: 'ipv4' | 'ipv6'): [string, BlockList][] =>
  Object.entries(ranges).map(([label, nets]) => {
    const list = new BlockList();
    for (const [network, prefix] of nets) list.addSubnet(network, prefix, type);
    return [label, list];
  });

const V4_LISTS = blockLists(V4_RANGES, 'ipv4');
const V6_LISTS = blockLists(V6_RANGES, 'ipv6');

/**
 * Why an HTTP task may not reach `address` (an IP address as text, as DNS or a URL gives it), e.g.
 * `loopback` or `loopback (127.0.0.1, IPv4-mapped)`; undefined when it may.
 */
export function refusalOf(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return v4Refusal(address);
  if (family !== 6) return 'not an IP address';
  const groups = groupsOf(address);
  if (groups.every((g) => g === 0)) return 'unspecified';
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return 'loopback';
  const embedded = embeddedV4(groups);
  // These prefixes are global in themselves: the IPv4 address they lead to decides.
  if (embedded.length > 0) {
    const hit = embedded.find(({ v4 }) => v4Refusal(v4) !== undefined);
    return hit && `${v4Refusal(hit.v4)} (${hit.v4}, ${hit.kind})`;
  }
  return V6_LISTS.find(([, list]) => list.check(address, 'ipv6'))?.[0];
}

function v4Refusal(address: string): string | undefined {
  return V4_LISTS.find(([, list]) => list.check(address, 'ipv4'))?.[0];
}

interface Embedded {
  kind: string;
  v4: string;
}

/** The IPv4 addresses an IPv6 address carries, by the prefix that says where they are. */
function embeddedV4(g: number[]): Embedded[] {
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const at = (hi: number, lo: number): string => v4Of(g[hi] ?? 0, g[lo] ?? 0);
  if (zero(0, 5) && g[5] === 0xffff) return [{ kind: 'IPv4-mapped', v4: at(6, 7) }];
  if (zero(0, 6)) return [{ kind: 'IPv4-compatible', v4: at(6, 7) }];
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return [{ kind: 'IPv4-translated', v4: at(6, 7) }];
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return [{ kind: 'NAT64', v4: at(6, 7) }];
  if (g[0] === 0x2002) return [{ kind: '6to4', v4: at(1, 2) }];
  if (g[0] === 0x2001 && g[1] === 0) {
    // Teredo: the server's address in bits 32-63, the client's in the last 32 bits, inverted.
    return [
      { kind: 'Teredo client', v4: v4Of(~(g[6] ?? 0) & 0xffff, ~(g[7] ?? 0) & 0xffff) },
      { kind: 'Teredo server', v4: at(2, 3) },
    ];
  }
  return [];
}

const v4Of = (hi: number, lo: number): string => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/**
 * The eight 16-bit groups of an address `isIP` accepted as IPv6: zone id dropped, `::` expanded, a
 * trailing dotted quad folded into two groups.
 */
function groupsOf(address: string): number[] {
  const text = address.split('%')[0] ?? '';
  const parse = (part: string): number[] => {
    if (part === '') return [];
    return part.split(':').flatMap((piece) => {
      if (!piece.includes('.')) return [Number.parseInt(piece, 16)];
      const [a = 0, b = 0, c = 0, d = 0] = piece.split('.').map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  };
  const [head = '', tail] = text.split('::');
  if (tail === undefined) return parse(head);
  const before = parse(head);
  const after = parse(tail);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}
