import { reasonRequestSchema } from '@bytegate/contracts/admin';
import {
  type AddSourceRequest,
  type SOURCE_GRAMMARS,
  type SourceState,
  sourceChangeFieldsSchema,
} from '@bytegate/contracts/admin-supply';
import type { PoolType } from '@bytegate/contracts/pools';

// The Add source form's draft and its checks, apart from the dialog: what can be told before sending
// (a field left empty, a cost or weight out of range, the reason), and the request in the spelling of
// `bytegate sources add`. The rest of the rules (a URL the gateway can use, a template that parses) are
// the server's, as for the command line; its refusal names each field, shown under it.

export type SourceGrammar = (typeof SOURCE_GRAMMARS)[number];
export type EndpointProtocol = 'http' | 'https' | 'socks5';

export interface AddSourceDraft {
  name: string;
  pool: PoolType;
  kind: 'network' | 'exits';
  grammar: SourceGrammar;
  template: string;
  passwordTemplate: string;
  protocol: EndpointProtocol;
  /** `host:port` of the vendor's endpoint (the protocol and the account have fields of their own). */
  endpoint: string;
  username: string;
  /** The account's password: sent once, kept on the server, never shown again. */
  password: string;
  costPerGb: string;
  weight: string;
  state: SourceState;
  reason: string;
}

export type DraftErrors = Partial<Record<keyof AddSourceDraft, string>>;

export const EMPTY_DRAFT: AddSourceDraft = {
  name: '',
  pool: 'residential',
  kind: 'network',
  grammar: 'oxylabs',
  template: '',
  passwordTemplate: '',
  protocol: 'http',
  endpoint: '',
  username: '',
  password: '',
  costPerGb: '',
  weight: '100',
  state: 'active',
  reason: '',
};

export const PROTOCOL_LABELS: Record<EndpointProtocol, string> = {
  http: 'HTTP (CONNECT)',
  https: 'HTTPS (CONNECT over TLS)',
  socks5: 'SOCKS5',
};

/** `pr.oxylabs.io:7777`, `203.0.113.7:8000` or `[2001:db8::1]:1080`. */
const HOST_AND_PORT = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\]):\d{1,5}$/i;

const isNetwork = (draft: AddSourceDraft) => draft.kind === 'network';

/** What is wrong with the draft before it is sent, by field (empty: nothing). */
export function checkDraft(draft: AddSourceDraft): DraftErrors {
  const errors: DraftErrors = {};
  if (draft.name.trim() === '') {
    errors.name = 'Name is required';
  }
  if (isNetwork(draft)) {
    const endpoint = draft.endpoint.trim();
    if (endpoint === '') {
      errors.endpoint = 'Host and port are required, such as pr.oxylabs.io:7777';
    } else if (endpoint.includes('://') || endpoint.includes('@')) {
      errors.endpoint =
        'Give only the host and port: the protocol, username and password have fields of their own';
    } else if (!HOST_AND_PORT.test(endpoint)) {
      errors.endpoint = 'Give the host and port, such as pr.oxylabs.io:7777';
    }
    if (draft.username === '') {
      errors.username = 'The account’s username is required';
    }
    if (draft.password === '') {
      errors.password = 'The account’s password is required';
    }
    if (draft.grammar === 'template' && draft.template.trim() === '') {
      errors.template = 'The template grammar needs a username template';
    }
  }
  const fields = sourceChangeFieldsSchema.safeParse({
    ...(draft.weight.trim() === '' ? {} : { weight: Number(draft.weight) }),
    ...(draft.costPerGb.trim() === '' ? {} : { costPerGb: draft.costPerGb.trim().replace(/^\$/, '') }),
    state: draft.state,
  });
  for (const issue of fields.success ? [] : fields.error.issues) {
    const field = issue.path[0] as keyof AddSourceDraft;
    errors[field] ??= issue.message;
  }
  const reason = reasonRequestSchema.safeParse({ reason: draft.reason });
  if (!reason.success) {
    errors.reason = reason.error.issues[0]?.message;
  }
  return errors;
}

/** The draft as `POST /api/admin/sources` takes it: the endpoint, account and all in one URL. */
export function toAddSourceRequest(draft: AddSourceDraft): AddSourceRequest {
  const common = {
    name: draft.name.trim(),
    pool: draft.pool,
    kind: draft.kind,
    ...(draft.costPerGb.trim() === '' ? {} : { costPerGb: draft.costPerGb.trim().replace(/^\$/, '') }),
    ...(draft.weight.trim() === '' ? {} : { weight: Number(draft.weight) }),
    state: draft.state,
    reason: draft.reason.trim(),
  };
  if (!isNetwork(draft)) {
    return common;
  }
  const account = `${encodeURIComponent(draft.username)}:${encodeURIComponent(draft.password)}`;
  return {
    ...common,
    grammar: draft.grammar,
    url: `${draft.protocol}://${account}@${draft.endpoint.trim()}`,
    ...(draft.grammar === 'template'
      ? {
          template: draft.template.trim(),
          ...(draft.passwordTemplate.trim() === ''
            ? {}
            : { passwordTemplate: draft.passwordTemplate.trim() }),
        }
      : {}),
  };
}

/** The form's field for each field the server names (the URL is the endpoint's, with the account). */
const FIELD_OF: Record<string, keyof AddSourceDraft> = {
  name: 'name',
  pool: 'pool',
  kind: 'kind',
  grammar: 'grammar',
  template: 'template',
  passwordTemplate: 'passwordTemplate',
  url: 'endpoint',
  costPerGb: 'costPerGb',
  weight: 'weight',
  state: 'state',
  reason: 'reason',
};

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The server's refusal by field: its `fields`, else its one `field`; empty when it names none. */
export function serverErrors(body: Record<string, unknown>, message: string): DraftErrors {
  const named: Record<string, unknown> =
    typeof body.fields === 'object' && body.fields !== null
      ? (body.fields as Record<string, unknown>)
      : typeof body.field === 'string'
        ? { [body.field]: message }
        : {};
  const errors: DraftErrors = {};
  for (const [field, text] of Object.entries(named)) {
    const own = FIELD_OF[field];
    if (own && typeof text === 'string') {
      errors[own] ??= sentence(text);
    }
  }
  return errors;
}
