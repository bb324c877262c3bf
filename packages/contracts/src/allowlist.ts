import { z } from 'zod';

/** How many client addresses one plan may allowlist. */
export const MAX_ALLOWLIST_ADDRESSES = 20;

export const allowlistMessages = {
  invalidAddress: 'Enter a valid IPv4 or IPv6 address, such as 203.0.113.7 or 2001:db8::7',
  addressTaken: 'This address is already allowlisted for a proxy plan',
  listFull: `A plan can allowlist at most ${MAX_ALLOWLIST_ADDRESSES} addresses`,
  notListed: 'This address is not on the allowlist',
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

export const allowlistAddressSchema = z
  .string()
  .max(64, allowlistMessages.invalidAddress)
  .transform((value, ctx) => {
    const canonical = canonicalIpAddress(value);
    if (canonical === null) {
      ctx.addIssue({ code: 'custom', message: allowlistMessages.invalidAddress });
      return z.NEVER;
    }
    return canonical;
  });

export const allowlistEntrySchema = z.object({ address: z.string(), createdAt: z.string() });
export type AllowlistEntry = z.infer<typeof allowlistEntrySchema>;

export const allowlistResponseSchema = z.object({
  addresses: z.array(allowlistEntrySchema),
  max: z.number().int(),
  /** The address this request came from, so the screen can offer to add it. */
  clientAddress: z.string().nullable(),
});
export type AllowlistResponse = z.infer<typeof allowlistResponseSchema>;

export const addAllowlistRequestSchema = z.object({
  subuser_id: z.string().max(64),
  address: allowlistAddressSchema,
});
export type AddAllowlistRequest = z.input<typeof addAllowlistRequestSchema>;

export const removeAllowlistQuerySchema = z.object({
  subuser_id: z.string().max(64),
  address: allowlistAddressSchema,
});
