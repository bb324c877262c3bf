import { SOURCE_STATES, SOURCE_WEIGHT_MAX } from '@bytegate/contracts/admin-supply';
import { hasControlCharacters } from '@bytegate/contracts/text';
import type { NewSource, SourceRow } from '@bytegate/db/queries';
import { GRAMMAR_NAMES, grammarAdapter, parseUpstreamUrl } from '@bytegate/gateway';
import { z } from 'zod';
import { grammarSpecOf } from '../../gateway/gateway-sources.ts';

/** Dollars with at most two decimals ("1.20") as whole cents. */
const dollarsAsCents = (field: string) =>
  z
    .union([z.string(), z.number()], { error: `${field} must be an amount in dollars, such as 1.20` })
    .transform((value) => String(value).trim())
    .refine(
      (value) => /^\d{1,6}(\.\d{1,2})?$/.test(value),
      `${field} must be an amount in dollars, such as 1.20`,
    )
    .transform((value) => Math.round(Number(value) * 100));

const WEIGHT_MESSAGE = `weight must be a whole number from 0 to ${SOURCE_WEIGHT_MAX}`;
const weight = z.coerce
  .number({ error: WEIGHT_MESSAGE })
  .int(WEIGHT_MESSAGE)
  .min(0, WEIGHT_MESSAGE)
  .max(SOURCE_WEIGHT_MAX, WEIGHT_MESSAGE);

const name = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name is required')
  .max(100, 'name must be at most 100 characters')
  .refine((value) => !hasControlCharacters(value), 'name must not contain control characters');

const template = z
  .string()
  .max(500, 'template must be at most 500 characters')
  .refine((value) => !hasControlCharacters(value), 'template must not contain control characters')
  .optional();

export { SOURCE_STATES };

/** A source as an operator gives it (`bytegate sources add`, the console's form). */
export const sourceInputSchema = z
  .object({
    name,
    pool: z.enum(['datacenter', 'residential', 'mobile'], {
      error: 'pool must be datacenter, residential or mobile',
    }),
    kind: z.enum(['exits', 'network'], { error: 'kind must be exits or network' }).default('network'),
    grammar: z
      .enum(GRAMMAR_NAMES as [string, ...string[]], {
        error: `grammar must be one of ${GRAMMAR_NAMES.join(', ')}`,
      })
      .optional(),
    template,
    passwordTemplate: template,
    url: z.string().trim().max(2000, 'url must be at most 2000 characters').optional(),
    costPerGb: dollarsAsCents('cost-per-gb').default(0),
    weight: weight.default(100),
    state: z.enum(SOURCE_STATES, { error: 'state must be active, draining or off' }).default('active'),
  })
  .superRefine(
    (input, issues) => {
      if (input.kind === 'exits') {
        if (input.grammar || input.url || input.template) {
          issues.addIssue({
            code: 'custom',
            path: ['kind'],
            message: 'our own exits take no url, grammar or template',
          });
        }
        return;
      }
      if (input.kind === 'network') {
        checkNetwork(input, issues);
      }
    },
    // Also when other fields failed, so that every problem is named at once (the console shows each
    // beside its field); a field of the wrong type is then read as missing.
    { when: () => true },
  );

export type SourceInput = z.output<typeof sourceInputSchema>;

/** A network needs an endpoint it can reach and a grammar that builds (a template must parse). */
function checkNetwork(
  input: {
    grammar?: string | undefined;
    template?: string | undefined;
    passwordTemplate?: string | undefined;
    url?: string | undefined;
  },
  issues: z.RefinementCtx,
): void {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  input = {
    grammar: text(input.grammar),
    template: text(input.template),
    passwordTemplate: text(input.passwordTemplate),
    url: text(input.url),
  };
  const proxy = input.url ? parseUpstreamUrl(input.url) : null;
  if (!proxy) {
    issues.addIssue({
      code: 'custom',
      path: ['url'],
      message: 'url must be http://USER:PASS@HOST:PORT, https://... or socks5://... with the account',
    });
  } else if (proxy.username === undefined) {
    issues.addIssue({
      code: 'custom',
      path: ['url'],
      message: "url must carry the network account's USER:PASS",
    });
  }
  if (!input.grammar) {
    issues.addIssue({
      code: 'custom',
      path: ['grammar'],
      message: `grammar must be one of ${GRAMMAR_NAMES.join(', ')}`,
    });
    return;
  }
  if (!(GRAMMAR_NAMES as readonly string[]).includes(input.grammar)) {
    return; // the grammar's own field says so
  }
  if (input.grammar === 'template' && !input.template) {
    issues.addIssue({ code: 'custom', path: ['template'], message: 'the template grammar needs a template' });
    return;
  }
  if (input.grammar !== 'template' && (input.template || input.passwordTemplate)) {
    issues.addIssue({
      code: 'custom',
      path: ['template'],
      message: 'only the template grammar takes a template',
    });
    return;
  }
  try {
    grammarAdapter(
      grammarSpecOf({
        grammar: input.grammar,
        template: input.template ?? null,
        passwordTemplate: input.passwordTemplate ?? null,
      }),
    );
  } catch (error) {
    issues.addIssue({ code: 'custom', path: ['template'], message: `template: ${(error as Error).message}` });
  }
}

/** The row for a source read by sourceInputSchema. */
export function toNewSource(input: SourceInput): NewSource {
  return {
    name: input.name,
    poolType: input.pool,
    kind: input.kind,
    grammar: input.kind === 'network' ? (input.grammar ?? null) : null,
    template: input.template ?? null,
    passwordTemplate: input.passwordTemplate ?? null,
    endpointUrl: input.kind === 'network' ? (input.url ?? null) : null,
    costPerGbCents: input.costPerGb,
    weight: input.weight,
    state: input.state,
  };
}

/** A network's URL with its password hidden: what staff, logs and the audit log see. */
export function maskEndpointUrl(text: string | null): string | null {
  if (text === null) {
    return null;
  }
  const proxy = parseUpstreamUrl(text);
  if (!proxy) {
    return '(invalid url)';
  }
  const scheme = proxy.protocol === 'socks5' ? 'socks5' : proxy.tls ? 'https' : 'http';
  const user = proxy.username !== undefined ? `${encodeURIComponent(proxy.username)}:***@` : '';
  const host = proxy.host.includes(':') ? `[${proxy.host}]` : proxy.host;
  return `${scheme}://${user}${host}:${proxy.port}`;
}

/** A source as the audit log keeps it: everything staff change or clear, but the account's password. */
export function auditedSource(row: SourceRow) {
  return {
    name: row.name,
    pool: row.poolType,
    kind: row.kind,
    grammar: row.grammar,
    template: row.template,
    url: maskEndpointUrl(row.endpointUrl),
    costPerGbCents: row.costPerGbCents,
    weight: row.weight,
    state: row.state,
    alarm: row.alarm,
  };
}
