import { z } from 'zod';
import { planIdSchema } from './billing.ts';
import { text } from './text.ts';

/** How many client addresses one plan may allowlist. */
export const MAX_ALLOWLIST_ADDRESSES = 20;

export const allowlistMessages = {
  invalidAddress: 'Enter a valid IPv4 or IPv6 address, such as 203.0.113.7 or 2001:db8::7',
  notPublic:
    'Enter a public address: private, loopback, link-local, multicast, reserved and unspecified addresses cannot be the address your requests come from',
  onOtherPlan: (poolLabel: string) => `This address is already on the allowlist of your ${poolLabel} plan`,
  listFull: `A plan can allowlist at most ${MAX_ALLOWLIST_ADDRESSES} addresses`,
  notListed: 'This address is not on the allowlist',
  heldByAnotherAccount:
    'Another account has proved this address theirs, so it cannot be allowlisted here: send the proxy login and password from it',
} as const;

/** Eight 16-bit groups of a valid IPv6 text (an embedded IPv4 tail is read as its two groups). */
function ipv6Groups(text: string): number[] {
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  const body = v4
    ? `${text.slice(0, v4.index)}${((Number(v4[1]) << 8) | Number(v4[2])).toString(16)}:${((Number(v4[3]) << 8) | Number(v4[4])).toString(16)}`
    : text;
  const [head = '', rest] = body.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const parts =
    rest === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return parts.map((part) => Number.parseInt(part, 16));
}

/** RFC 5952 text: lower-case, no leading zeros, the longest run (two or more) of zero groups as "::". */
function canonicalIpv6(text: string): string {
  const groups = ipv6Groups(text);
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) {
      j += 1;
    }
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart === -1) {
    return hex.join(':');
  }
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** IPv4 ranges that are never a client's public address (IANA's special-purpose registry, not global). */
const NON_PUBLIC_V4: Array<[base: number, bits: number]> = [
  ['0.0.0.0', 8], // "this network", the unspecified address
  ['10.0.0.0', 8], // private use
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private use
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private use
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
].map(([base, bits]) => [ipv4Number(base as string), bits as number]);

function ipv4Number(text: string): number {
  return text.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

/** IPv6 ranges inside global unicast (2000::/3) that are still not a client's public address. */
const NON_PUBLIC_V6: Array<[prefix: number[], bits: number]> = [
  [[0x2001, 0x0db8], 32], // documentation
  [[0x3fff, 0x0000], 20], // documentation
  [[0x2001, 0x0002, 0x0000], 48], // benchmarking
  [[0x2001, 0x0010], 28], // deprecated ORCHID
];

function inPrefix(groups: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i * 16 < bits; i++) {
    const take = Math.min(16, bits - i * 16);
    const mask = (0xffff << (16 - take)) & 0xffff;
    if (((groups[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) {
      return false;
    }
  }
  return true;
}

/**
 * Whether a canonical address (see canonicalIpAddress) can be a client's public address on the
 * internet: not unspecified, loopback, private, link-local, multicast, documentation or reserved.
 * IPv6 must be global unicast (2000::/3) outside its documentation and benchmarking ranges.
 */
export function isPublicAddress(canonical: string): boolean {
  if (!canonical.includes(':')) {
    const value = ipv4Number(canonical);
    return !NON_PUBLIC_V4.some(
      ([base, bits]) => Math.floor(value / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)),
    );
  }
  const groups = ipv6Groups(canonical);
  if (((groups[0] ?? 0) & 0xe000) !== 0x2000) {
    return false; // outside 2000::/3: unspecified, loopback, ULA, link-local, multicast, mapped, reserved
  }
  return !NON_PUBLIC_V6.some(([prefix, bits]) => inPrefix(groups, prefix, bits));
}

/**
 * The canonical text of an IP address, as the gateway sees a client's: IPv6 compressed and lower-case,
 * IPv4-mapped IPv6 as plain IPv4, IPv4 without leading zeros. Null when it is not an address.
 */
export function canonicalIpAddress(input: string): string | null {
  const text = input.trim();
  if (z.ipv4().safeParse(text).success) {
    return text
      .split('.')
      .map((part) => String(Number(part)))
      .join('.');
  }
  if (!z.ipv6().safeParse(text).success) {
    return null;
  }
  const host = canonicalIpv6(text.toLowerCase());
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped?.[1] && mapped[2]) {
    const high = Number.parseInt(mapped[1], 16);
    const low = Number.parseInt(mapped[2], 16);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return host;
}

export const allowlistAddressSchema = text('Address')
  .max(64, allowlistMessages.invalidAddress)
  .transform((value, ctx) => {
    const canonical = canonicalIpAddress(value);
    if (canonical === null) {
      ctx.addIssue({ code: 'custom', message: allowlistMessages.invalidAddress });
      return z.NEVER;
    }
    return canonical;
  });

export const allowlistEntrySchema = z.object({
  address: z.string(),
  createdAt: z.string(),
  /**
   * Proved: added by a request from this very address. Only a proved address lets traffic in without
   * credentials; add it again from that address to prove it.
   */
  verified: z.boolean(),
});
export type AllowlistEntry = z.infer<typeof allowlistEntrySchema>;

/** `GET /subuser/allowlist`: one plan's list. */
export const allowlistQuerySchema = z.object({ subuser_id: planIdSchema });
export type AllowlistQuery = z.input<typeof allowlistQuerySchema>;

export const allowlistResponseSchema = z.object({
  addresses: z.array(allowlistEntrySchema),
  max: z.number().int(),
  /** The address this request came from, so the screen can offer to add it. */
  clientAddress: z.string().nullable(),
});
export type AllowlistResponse = z.infer<typeof allowlistResponseSchema>;

export const addAllowlistRequestSchema = z.object({
  subuser_id: planIdSchema,
  address: allowlistAddressSchema,
});
export type AddAllowlistRequest = z.input<typeof addAllowlistRequestSchema>;

export const removeAllowlistQuerySchema = z.object({
  subuser_id: planIdSchema,
  address: allowlistAddressSchema,
});
