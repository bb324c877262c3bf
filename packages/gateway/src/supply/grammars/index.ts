import type { GrammarAdapter, GrammarName, GrammarSpec } from '../grammar.ts';
import { brightdata } from './brightdata.ts';
import { decodo } from './decodo.ts';
import { iproyal } from './iproyal.ts';
import { oxylabs } from './oxylabs.ts';
import { soax } from './soax.ts';
import { createTemplateAdapter } from './template.ts';
import { webshare } from './webshare.ts';

/** The adapter of each vendor grammar; the template one is built per source from its templates. */
const VENDORS: Readonly<Record<Exclude<GrammarName, 'template'>, GrammarAdapter>> = {
  brightdata,
  oxylabs,
  decodo,
  iproyal,
  webshare,
  soax,
};

/** The adapter for a spec; throws an Error whose message names the problem (a bad template) for CLI/API validation. */
export function grammarAdapter(spec: GrammarSpec): GrammarAdapter {
  if (spec.grammar === 'template') {
    return createTemplateAdapter(spec.template, spec.passwordTemplate ?? '{password}');
  }
  const adapter = VENDORS[spec.grammar] as GrammarAdapter | undefined;
  if (adapter === undefined) {
    throw new Error(`unknown grammar "${String(spec.grammar)}"`);
  }
  return adapter;
}
