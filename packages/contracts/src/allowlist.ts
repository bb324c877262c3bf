import { z } from 'zod';

/** How many client addresses one plan may allowlist. */
export const MAX_ALLOWLIST_ADDRESSES = 20;

export const allowlistMessages = {
  invalidAddress: 'Enter a valid IPv4 or IPv6 address, such as 203.0.113.7 or 2001:db8::7',
  addressTaken: 'This address is already allowlisted for a proxy plan',
  listFull: `A plan can allowlist at most ${MAX_ALLOWLIST_ADDRESSES} addresses`,
  notListed: 'This address is not on the allowlist',
} as const;

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
  let host: string;
  try {
    host = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
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
