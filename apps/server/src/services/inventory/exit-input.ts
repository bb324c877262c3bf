import { isIP } from 'node:net';
import { hasControlCharacters } from '@bytegate/contracts/text';
import type { NewExit } from '@bytegate/db/queries';
import { parseUpstreamUrl } from '@bytegate/gateway';
import { type ZodError, z } from 'zod';

// No NUL or other control character in any field: PostgreSQL cannot store NUL, and no name holds one.
const CONTROL_CHARACTERS = 'must not contain control characters';

const optionalText = z
  .string()
  .trim()
  .max(100)
  .refine((value) => !hasControlCharacters(value), CONTROL_CHARACTERS)
  .optional()
  .transform((value) => (value ? value : undefined));

// CSV cells are strings: an empty one means the field is not given.
const blankAsUndefined = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' || value === null ? undefined : value), schema);

/** One exit as an operator gives it (CLI flags, CSV row or JSON object). */
export const exitInputSchema = z
  .object({
    name: z
      .string({ error: 'name is required' })
      .trim()
      .min(1, 'name is required')
      .max(100)
      .refine((value) => !hasControlCharacters(value), `name ${CONTROL_CHARACTERS}`),
    kind: blankAsUndefined(
      z.enum(['direct', 'upstream'], { error: 'kind must be direct or upstream' }).default('direct'),
    ),
    pool: z.enum(['datacenter', 'residential', 'mobile'], {
      error: 'pool must be datacenter, residential or mobile',
    }),
    country: z
      .string({ error: 'country must be a two-letter ISO code' })
      .trim()
      .regex(/^[A-Za-z]{2}$/, 'country must be a two-letter ISO code')
      .transform((value) => value.toUpperCase()),
    state: optionalText,
    city: optionalText,
    zip: optionalText,
    asn: blankAsUndefined(
      z.coerce
        .number({ error: 'asn must be a number' })
        .int('asn must be a whole number')
        .min(1, 'asn must be between 1 and 4294967295')
        .max(4_294_967_295, 'asn must be between 1 and 4294967295')
        .optional(),
    ),
    asnName: optionalText,
    mobileGeneration: blankAsUndefined(
      z.enum(['5G', '4G', '3G', 'LTE'], { error: 'mobileGeneration must be 5G, 4G, 3G or LTE' }).optional(),
    ),
    localAddress: optionalText.refine(
      (value) => value === undefined || isIP(value) !== 0,
      'localAddress must be an IP address',
    ),
    upstreamUrl: z
      .string()
      .trim()
      .max(500)
      .refine((value) => !hasControlCharacters(value), `upstreamUrl ${CONTROL_CHARACTERS}`)
      .optional()
      .transform((value) => (value ? value : undefined))
      .refine(
        (value) => value === undefined || parseUpstreamUrl(value) !== null,
        'upstreamUrl must be an http://, https:// or socks5:// proxy URL with a host and port, like socks5://user:pass@203.0.113.9:1080',
      ),
    risky: z
      .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no', ''])], {
        error: 'risky must be true or false',
      })
      .optional()
      .transform((value) => value === true || value === 'true' || value === '1' || value === 'yes'),
  })
  .refine((exit) => (exit.kind === 'upstream') === Boolean(exit.upstreamUrl), {
    message: 'an upstream exit needs upstreamUrl, and a direct exit has none',
    path: ['upstreamUrl'],
  })
  // The gateway never binds a connection to an upstream proxy: refuse rather than ignore the address.
  .refine((exit) => exit.kind === 'direct' || exit.localAddress === undefined, {
    message: 'localAddress is for direct exits only',
    path: ['localAddress'],
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

/** An exit's row in an import, with where it came from: its line in a CSV (the header is line 1), or its item of a JSON array. */
export interface ExitFileRow {
  line: number;
  fields: Record<string, unknown>;
}

/**
 * The rows of an import: a CSV with a header line (no quoted commas; blank lines and lines starting with
 * `#` are skipped) or a JSON array of objects. Throws an Error that says why when the file is neither.
 */
export function parseExitRows(text: string, format: 'csv' | 'json'): ExitFileRow[] {
  if (format === 'json') {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new Error(`the file is not JSON (${(error as Error).message})`);
    }
    if (!Array.isArray(data)) {
      throw new Error('the JSON file must hold an array of exits');
    }
    return data.map((fields, index) => ({ line: index + 1, fields: fields as Record<string, unknown> }));
  }
  const lines = text
    .split(/\r?\n/)
    .map((content, index) => ({ content, line: index + 1 }))
    .filter(({ content }) => content.trim() !== '' && !content.startsWith('#'));
  const header = (lines.shift()?.content ?? '').split(',').map((name) => name.trim());
  if (!header.includes('name')) {
    throw new Error('the CSV file must start with a header line naming its columns, like name,pool,country');
  }
  return lines.map(({ content, line }) => {
    const cells = content.split(',');
    return {
      line,
      fields: Object.fromEntries(header.map((name, index) => [name, cells[index]?.trim() ?? ''])),
    };
  });
}

/** Every problem of a refused exit, each as `field: message`, joined. */
export function describeExitIssues(error: ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'exit'}: ${issue.message}`).join('; ');
}
