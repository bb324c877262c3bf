import type { Targeting } from '@bytegate/contracts/targeting';
import type { GrammarAdapter, VendorSession } from '../grammar.ts';
import {
  classifyCommon,
  combinationReason,
  exclusionReason,
  isSet,
  LOWER_ALNUM,
  pickLocation,
  vendorSessionId,
} from './shared.ts';

/**
 * The generic grammar, for a network we have no adapter for: a username template such as
 * `{user}[-country-{country:lower}][-city-{city:lower:sep=_}][-session-{session}][-ttl-{minutes}]`, and a
 * password template (default `{password}`) in the same language.
 * - Placeholders: user, password, country (upper-case code), state and city (lower-case, spaces kept),
 *   zip, asn, session (16 lower-case alphanumerics), minutes, seconds.
 * - Modifiers after `:`: `upper`, `lower`, and `sep=X` to write a value's spaces as X (`sep=` drops them).
 * - `[...]` is optional: dropped when a placeholder inside it has no value. Segments may nest.
 * - session, minutes and seconds must sit in an optional segment: a rotating connection has none.
 * What the templates can express is the placeholders they hold; a list takes one value, picked per session.
 */

const PLACEHOLDERS = [
  'user',
  'password',
  'country',
  'state',
  'city',
  'zip',
  'asn',
  'session',
  'minutes',
  'seconds',
];
type Placeholder = 'user' | 'password' | Dimension | 'session' | 'minutes' | 'seconds';
type Dimension = 'country' | 'state' | 'city' | 'zip' | 'asn';

const SESSION_PLACEHOLDERS: readonly Placeholder[] = ['session', 'minutes', 'seconds'];
const SESSION_LENGTH = 16;

/** Each location placeholder, the targeting list that fills it, and how a reason names it. */
const DIMENSIONS: ReadonlyArray<{ name: Dimension; list: keyof Targeting; label: string }> = [
  { name: 'country', list: 'countries', label: 'country' },
  { name: 'state', list: 'states', label: 'state' },
  { name: 'city', list: 'cities', label: 'city' },
  { name: 'zip', list: 'zips', label: 'ZIP' },
  { name: 'asn', list: 'asns', label: 'ASN' },
];

type TemplateNode =
  | { kind: 'text'; text: string }
  | { kind: 'slot'; name: Placeholder; letterCase?: 'upper' | 'lower'; separator?: string }
  | { kind: 'optional'; nodes: TemplateNode[] };

type Values = Partial<Record<Placeholder, string>>;

function parseSlot(body: string, where: string, optional: boolean): TemplateNode {
  const [name = '', ...modifiers] = body.split(':');
  if (!PLACEHOLDERS.includes(name)) {
    throw new Error(`unknown placeholder {${name}} in the ${where} (known: ${PLACEHOLDERS.join(', ')})`);
  }
  const slot: TemplateNode & { kind: 'slot' } = { kind: 'slot', name: name as Placeholder };
  if (!optional && SESSION_PLACEHOLDERS.includes(slot.name)) {
    throw new Error(
      `{${name}} in the ${where} must be inside an optional [...] segment: rotating connections have none`,
    );
  }
  for (const modifier of modifiers) {
    if (modifier === 'upper' || modifier === 'lower') {
      if (slot.letterCase !== undefined && slot.letterCase !== modifier) {
        throw new Error(`{${name}} in the ${where} cannot be both upper and lower`);
      }
      slot.letterCase = modifier;
    } else if (modifier.startsWith('sep=')) {
      slot.separator = modifier.slice('sep='.length);
    } else {
      throw new Error(
        `unknown modifier "${modifier}" on {${name}} in the ${where} (known: upper, lower, sep=X)`,
      );
    }
  }
  return slot;
}

/** The template's tree; throws an Error naming the first problem and where it is. */
function parseTemplate(text: string, where: string): TemplateNode[] {
  const root: TemplateNode[] = [];
  const stack: Array<{ nodes: TemplateNode[]; at: number }> = [{ nodes: root, at: 0 }];
  let literal = '';
  const top = () => (stack[stack.length - 1] as { nodes: TemplateNode[] }).nodes;
  const flush = () => {
    if (literal !== '') {
      top().push({ kind: 'text', text: literal });
      literal = '';
    }
  };
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '{') {
      const end = text.indexOf('}', i);
      const body = end === -1 ? '' : text.slice(i + 1, end);
      if (end === -1 || /[{[\]]/.test(body)) {
        throw new Error(`"{" at character ${i + 1} of the ${where} is never closed`);
      }
      flush();
      top().push(parseSlot(body, where, stack.length > 1));
      i = end;
    } else if (char === '}') {
      throw new Error(`"}" at character ${i + 1} of the ${where} closes nothing`);
    } else if (char === '[') {
      flush();
      const nodes: TemplateNode[] = [];
      top().push({ kind: 'optional', nodes });
      stack.push({ nodes, at: i + 1 });
    } else if (char === ']') {
      if (stack.length === 1) {
        throw new Error(`unbalanced brackets: "]" at character ${i + 1} of the ${where} closes nothing`);
      }
      flush();
      stack.pop();
    } else {
      literal += char;
    }
  }
  if (stack.length > 1) {
    const open = stack[stack.length - 1] as { at: number };
    throw new Error(`unbalanced brackets: "[" at character ${open.at} of the ${where} is never closed`);
  }
  flush();
  return root;
}

const holds = (nodes: TemplateNode[], name: Placeholder): boolean =>
  nodes.some((node) =>
    node.kind === 'slot' ? node.name === name : node.kind === 'optional' && holds(node.nodes, name),
  );

function format(value: string, slot: TemplateNode & { kind: 'slot' }): string {
  const spaced = slot.separator === undefined ? value : value.split(' ').join(slot.separator);
  if (slot.letterCase === 'upper') {
    return spaced.toUpperCase();
  }
  return slot.letterCase === 'lower' ? spaced.toLowerCase() : spaced;
}

interface Rendered {
  text: string;
  used: Set<Placeholder>;
  /** The first placeholder without a value outside any optional segment. */
  missing?: Placeholder;
}

function render(nodes: TemplateNode[], values: Values): Rendered {
  const out: Rendered = { text: '', used: new Set() };
  for (const node of nodes) {
    if (node.kind === 'text') {
      out.text += node.text;
    } else if (node.kind === 'slot') {
      const value = values[node.name];
      if (value === undefined) {
        out.missing ??= node.name;
      } else {
        out.text += format(value, node);
        out.used.add(node.name);
      }
    } else {
      const inner = render(node.nodes, values);
      if (inner.missing === undefined) {
        out.text += inner.text;
        for (const name of inner.used) {
          out.used.add(name);
        }
      }
    }
  }
  return out;
}

/** The generic adapter for a template; throws an Error naming the problem in a bad one. */
export function createTemplateAdapter(template: string, passwordTemplate = '{password}'): GrammarAdapter {
  const username = parseTemplate(template, 'username template');
  const password = parseTemplate(passwordTemplate, 'password template');
  if (!holds(username, 'user')) {
    throw new Error('the username template has no {user}');
  }

  function cannotExpress(targeting: Targeting): string | null {
    const reason = exclusionReason(targeting) ?? combinationReason(targeting);
    if (reason !== null) {
      return reason;
    }
    // Rendered with a stand-in for every value the targeting has: what is dropped is not expressed.
    const values: Values = { user: 'u', password: 'p' };
    for (const { name, list } of DIMENSIONS) {
      if (isSet(targeting[list] as unknown[] | undefined)) {
        values[name] = 'x';
      }
    }
    const used = new Set<Placeholder>();
    for (const nodes of [username, password]) {
      const rendered = render(nodes, values);
      if (rendered.missing !== undefined) {
        return `targeting without a ${DIMENSIONS.find((d) => d.name === rendered.missing)?.label} (the template requires one)`;
      }
      for (const name of rendered.used) {
        used.add(name);
      }
    }
    const lost = DIMENSIONS.find(({ name }) => values[name] !== undefined && !used.has(name));
    return lost === undefined ? null : `${lost.label} targeting`;
  }

  const adapter: GrammarAdapter = {
    name: 'template',
    cannotExpress,
    credentials(account, targeting, session: VendorSession | undefined) {
      const reason = cannotExpress(targeting);
      if (reason !== null) {
        throw new Error(`template cannot express ${reason}`);
      }
      const place = pickLocation(targeting, session);
      const values: Values = {
        user: account.username,
        password: account.password,
        country: place.country,
        state: place.state,
        city: place.city,
        zip: place.zip,
        asn: place.asn === undefined ? undefined : String(place.asn),
      };
      if (session !== undefined) {
        const minutes = Math.max(1, Math.round(session.minutes));
        values.session = vendorSessionId(session.key, LOWER_ALNUM, SESSION_LENGTH);
        values.minutes = String(minutes);
        values.seconds = String(minutes * 60);
      }
      return { username: render(username, values).text, password: render(password, values).text };
    },
    classify: classifyCommon,
  };
  return adapter;
}
