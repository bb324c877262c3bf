import { isIP } from 'node:net';
import type { NewExit } from '@bytegate/db/queries';
import { parseUpstreamUrl } from '@bytegate/gateway';
import { z } from 'zod';

const optionalText = z
  .string()
  .trim()
  .max(100)
  .optional()
  .transform((value) => (value ? value : undefined));

// CSV cells are strings: an empty one means the field is not given.
const blankAsUndefined = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' || value === null ? undefined : value), schema);

/** One exit as an operator gives it (CLI flags, CSV row or JSON object). */
export const exitInputSchema = z
  .object({
    name: z.string().trim().min(1, 'name is required').max(100),
    kind: z.enum(['direct', 'upstream']).default('direct'),
    pool: z.enum(['datacenter', 'residential', 'mobile'], {
      error: 'pool must be datacenter, residential or mobile',
    }),
    country: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/, 'country must be a two-letter ISO code')
      .transform((value) => value.toUpperCase()),
    state: optionalText,
    city: optionalText,
    zip: optionalText,
    asn: blankAsUndefined(
      z.coerce.number({ error: 'asn must be a number' }).int().min(1).max(4_294_967_295).optional(),
    ),
    asnName: optionalText,
    mobileGeneration: blankAsUndefined(z.enum(['5G', '4G', '3G', 'LTE']).optional()),
    localAddress: optionalText.refine(
      (value) => value === undefined || isIP(value) !== 0,
      'localAddress must be an IP address',
    ),
    upstreamUrl: z
      .string()
      .trim()
      .max(500)
      .optional()
      .transform((value) => (value ? value : undefined))
      .refine(
        (value) => value === undefined || parseUpstreamUrl(value) !== null,
        'upstreamUrl must be an http:// or socks5:// proxy URL with a host and port, like socks5://user:pass@203.0.113.9:1080',
      ),
    risky: z
      .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no', ''])])
      .optional()
      .transform((value) => value === true || value === 'true' || value === '1' || value === 'yes'),
  })
  .refine((exit) => (exit.kind === 'upstream') === Boolean(exit.upstreamUrl), {
    message: 'an upstream exit needs upstreamUrl, and a direct exit has none',
  })
  // The gateway never binds a connection to an upstream proxy: refuse rather than ignore the address.
  .refine((exit) => exit.kind === 'direct' || exit.localAddress === undefined, {
    message: 'localAddress is for direct exits only',
  });
export type ExitInput = z.input<typeof exitInputSchema>;

export function toNewExit(input: z.output<typeof exitInputSchema>): NewExit {
  return {
    name: input.name,
    kind: input.kind,
    poolType: input.pool,
    country: input.country,
    state: input.state ?? null,
    city: input.city ?? null,
    zip: input.zip ?? null,
    asn: input.asn ?? null,
    asnName: input.asnName ?? null,
    mobileGeneration: input.mobileGeneration ?? null,
    localAddress: input.localAddress ?? null,
    upstreamUrl: input.upstreamUrl ?? null,
    isRisky: input.risky,
  };
}

/** An upstream URL fit to print: the password becomes `***`; a URL the gateway cannot read is not shown. */
export function maskUpstreamUrl(text: string): string {
  // Rebuilt from the parsed parts: a malformed URL may leave part of its password outside the userinfo.
  const proxy = parseUpstreamUrl(text);
  if (!proxy) {
    return '(invalid upstream URL)';
  }
  const user =
    proxy.username !== undefined
      ? `${encodeURIComponent(proxy.username)}${proxy.password !== undefined ? ':***' : ''}@`
      : '';
  const host = proxy.host.includes(':') ? `[${proxy.host}]` : proxy.host;
  return `${proxy.protocol}://${user}${host}:${proxy.port}`;
}

/** Rows of a CSV with a header line (no quoted commas), or of a JSON array. */
export function parseExitFile(text: string, format: 'csv' | 'json'): Array<Record<string, unknown>> {
  if (format === 'json') {
    const data: unknown = JSON.parse(text);
    if (!Array.isArray(data)) {
      throw new Error('the JSON file must hold an array of exits');
    }
    return data as Array<Record<string, unknown>>;
  }
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '' && !line.startsWith('#'));
  const header = (lines.shift() ?? '').split(',').map((name) => name.trim());
  return lines.map((line) => {
    const cells = line.split(',');
    return Object.fromEntries(header.map((name, index) => [name, cells[index]?.trim() ?? '']));
  });
}
