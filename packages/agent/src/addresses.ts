import { BlockList, isIP } from 'node:net';

// The addresses no customer connection may reach: the gateway checks them before it dials, and an exit
// agent checks them again after its own DNS lookup, whatever the hub asked (the partner's router and
// LAN must stay out of reach). One set of rules for both, here in the agent: it depends on nothing.

// Private, loopback, link-local, CGNAT, multicast and cloud-metadata ranges.
const privateRanges = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  privateRanges.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  // Site-local (deprecated, still routed inside some networks).
  ['fec0::', 10],
  ['ff00::', 8],
  ['fd00:ec2::', 32],
  // Local-use NAT64 (RFC 8215): translated by the operator's own gateway, to wherever it decides.
  ['64:ff9b:1::', 48],
  // Teredo: tunnels to an IPv4 server and client of the sender's choosing, so refused whole.
  ['2001::', 32],
] as const) {
  privateRanges.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail and a zone allowed), or null. */
export function ipv6Groups(address: string): number[] | null {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) {
    return null;
  }
  const parse = (part: string | undefined) =>
    part ? part.split(':').map((group) => Number.parseInt(group, 16)) : [];
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  const groups =
    halves.length === 2
      ? [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail]
      : head;
  return groups.length === 8 &&
    groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? groups
    : null;
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/**
 * The IPv4 address an IPv6 one reaches, for the forms that carry one: IPv4-mapped `::ffff:a.b.c.d`,
 * IPv4-compatible `::a.b.c.d`, SIIT `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d` and 6to4
 * `2002:AABB:CCDD::` (bits 16-48). Null for any other IPv6 address.
 */
export function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) {
    return null;
  }
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const isZero = (...groups: number[]) => groups.every((group) => group === 0);
  if (
    isZero(g0, g1, g2, g3, g4) &&
    (g5 === 0xffff || g5 === 0) // mapped ::ffff:0:0/96, compatible ::/96
  ) {
    return ipv4Of(g6, g7);
  }
  if (isZero(g0, g1, g2, g3, g5) && g4 === 0xffff) {
    return ipv4Of(g6, g7); // SIIT ::ffff:0:0:0/96
  }
  if (g0 === 0x64 && g1 === 0xff9b && isZero(g2, g3, g4, g5)) {
    return ipv4Of(g6, g7); // NAT64 well-known prefix 64:ff9b::/96
  }
  if (g0 === 0x2002) {
    return ipv4Of(g1, g2); // 6to4 2002::/16
  }
  return null;
}

/**
 * Whether an address must not be reached for a customer (by the gateway or a webhook): private,
 * loopback, link-local, CGNAT, multicast, reserved and metadata ranges, and every IPv6 form that
 * reaches such an IPv4 address elsewhere (checked by the IPv4 rules), plus the IPv6 tunnels that reach
 * an IPv4 address the check cannot see (Teredo, local-use NAT64). Not an address at all: false.
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) {
    return false;
  }
  if (family === 4) {
    return privateRanges.check(address, 'ipv4');
  }
  const ipv4 = embeddedIpv4(address);
  if (ipv4 !== null) {
    return privateRanges.check(ipv4, 'ipv4');
  }
  return privateRanges.check(address.replace(/%.*$/, ''), 'ipv6');
}
