// Which special-purpose range an IP address is in, from IANA's IPv4 and IPv6 Special-Purpose Address
// Registries (RFC 6890 and its updates), for the ranges that are not globally reachable; an IPv6 address
// that carries an IPv4 one (IPv4-mapped, -compatible and -translated, NAT64's well-known prefix, 6to4,
// Teredo) is judged by the IPv4 address it carries, as the gateway that forwards it would reach that one.
import { BlockList, isIP } from 'node:net';

/** The ranges, each with the words a person reads. */
const specialRanges: { kind: string; ranges: [string, number, 'ipv4' | 'ipv6'][] }[] = [
  {
    kind: 'this computer (loopback)',
    ranges: [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  },
  {
    kind: 'the unspecified address',
    ranges: [
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ],
  },
  {
    kind: 'link-local',
    ranges: [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ],
  },
  {
    kind: 'a private network',
    ranges: [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      // Carrier-grade NAT's shared space: inside a provider's network, not on the internet (RFC 6598).
      ['100.64.0.0', 10, 'ipv4'],
      // Site-local, deprecated (RFC 3879) but still routed inside some networks.
      ['fec0::', 10, 'ipv6'],
      // NAT64 for local use (RFC 8215): translates into the operator's own network.
      ['64:ff9b:1::', 48, 'ipv6'],
    ],
  },
  { kind: 'a unique-local network', ranges: [['fc00::', 7, 'ipv6']] },
  {
    kind: 'multicast',
    ranges: [
      ['224.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ],
  },
  {
    kind: 'a documentation or benchmarking range',
    ranges: [
      ['192.0.2.0', 24, 'ipv4'],
      ['198.51.100.0', 24, 'ipv4'],
      ['203.0.113.0', 24, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['2001:db8::', 32, 'ipv6'],
      ['3fff::', 20, 'ipv6'],
      ['2001:2::', 48, 'ipv6'],
    ],
  },
  {
    kind: 'a reserved range',
    ranges: [
      // IETF protocol assignments (DS-Lite, NAT64 discovery...), the old 6to4 relay anycast, 240/4 with
      // the broadcast address; discard-only, ORCHID, SRv6 SIDs and IETF protocol assignments in IPv6.
      ['192.0.0.0', 24, 'ipv4'],
      ['192.88.99.0', 24, 'ipv4'],
      ['240.0.0.0', 4, 'ipv4'],
      ['100::', 64, 'ipv6'],
      ['2001::', 23, 'ipv6'],
      ['5f00::', 16, 'ipv6'],
    ],
  },
];

const lists = specialRanges.map(({ kind, ranges }) => {
  const list = new BlockList();
  for (const [network, prefix, family] of ranges) list.addSubnet(network, prefix, family);
  return { kind, list };
});

/** The 16 bytes of an IPv6 address (`::` expanded, a dotted IPv4 tail read); undefined when it is not one. */
function ipv6Bytes(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address.split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const before = groups(head);
  const after = tail === undefined ? [] : groups(tail);
  const words = [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

const ipv4At = (bytes: number[], at: number, xor = 0) =>
  bytes
    .slice(at, at + 4)
    .map((byte) => byte ^ xor)
    .join('.');
const startsWith = (bytes: number[], prefix: number[]) => prefix.every((byte, index) => bytes[index] === byte);
const zeros = (count: number) => new Array<number>(count).fill(0);

/** The IPv4 addresses an IPv6 address carries, where a gateway would forward it to them. */
function carriedIPv4(address: string): string[] {
  const bytes = ipv6Bytes(address);
  if (!bytes) return [];
  // IPv4-mapped ::ffff:a.b.c.d and -translated ::ffff:0:a.b.c.d (RFC 4291, RFC 2765).
  if (startsWith(bytes, [...zeros(10), 0xff, 0xff]) || startsWith(bytes, [...zeros(8), 0xff, 0xff, 0, 0]))
    return [ipv4At(bytes, 12)];
  // IPv4-compatible ::a.b.c.d (deprecated), but not :: or ::1 themselves.
  if (startsWith(bytes, zeros(12)) && bytes.slice(12).some((byte, index) => byte !== 0 && !(index === 3 && byte === 1)))
    return [ipv4At(bytes, 12)];
  // NAT64's well-known prefix 64:ff9b::/96 (RFC 6052).
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...zeros(8)])) return [ipv4At(bytes, 12)];
  // 6to4 2002:a.b.c.d::/48 (RFC 3056).
  if (startsWith(bytes, [0x20, 0x02])) return [ipv4At(bytes, 2)];
  // Teredo 2001:0::/32: the server's address, and the client's, obscured (RFC 4380).
  if (startsWith(bytes, [0x20, 0x01, 0, 0])) return [ipv4At(bytes, 4), ipv4At(bytes, 12, 0xff)];
  return [];
}

/** The kind of range `address` is in when it is not globally reachable, or undefined for a public address. */
export function specialRangeOf(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  for (const carried of carriedIPv4(address)) {
    const kind = specialRangeOf(carried);
    if (kind) return `${kind}, carried in ${address}`;
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return lists.find(({ list }) => list.check(address, type))?.kind;
}
