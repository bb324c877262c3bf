import type { SourceRow } from '@bytegate/db/queries';
import { type GrammarSpec, grammarAdapter, parseUpstreamUrl, type Source } from '@bytegate/gateway';

/** A source's grammar as stored: a vendor's name, or the template with its spelling. */
export function grammarSpecOf(
  row: Pick<SourceRow, 'grammar' | 'template' | 'passwordTemplate'>,
): GrammarSpec {
  return row.grammar === 'template'
    ? {
        grammar: 'template',
        template: row.template ?? '',
        passwordTemplate: row.passwordTemplate ?? undefined,
      }
    : ({ grammar: row.grammar } as GrammarSpec);
}

/**
 * A source row as the engine routes through it; null for a network whose URL or grammar it cannot read
 * (validated on the way in: a row edited by hand into nonsense is left out, not fatal).
 */
export function toGatewaySource(row: SourceRow): Source | null {
  const base = {
    id: row.id,
    name: row.name,
    poolType: row.poolType,
    weight: row.weight,
    costPerGbCents: row.costPerGbCents,
    state: row.state,
  };
  if (row.kind === 'exits') {
    return { ...base, kind: 'exits' };
  }
  const proxy = row.endpointUrl ? parseUpstreamUrl(row.endpointUrl) : null;
  if (!proxy) {
    return null;
  }
  try {
    const { username, password, ...endpoint } = proxy;
    return {
      ...base,
      kind: 'network',
      endpoint,
      account: { username: username ?? '', password: password ?? '' },
      adapter: grammarAdapter(grammarSpecOf(row)),
    };
  } catch {
    return null;
  }
}
