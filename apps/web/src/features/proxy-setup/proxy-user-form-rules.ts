import {
  allowlistMessages,
  canonicalIpAddress,
  isPublicAddress,
  MAX_ALLOWLIST_ADDRESSES,
} from '@bytegate/contracts/allowlist';
import {
  type CreateProxyUserBody,
  gbToBytes,
  PROXY_USER_LABEL_MAX_LENGTH,
  PROXY_USER_LOGIN,
  type ProxyUser,
  type ProxyUserFields,
  proxyUserMessages,
  TRAFFIC_CAP_PERIODS,
  type TrafficCapPeriod,
} from '@bytegate/contracts/proxy-users';
import { text } from '@bytegate/contracts/text';
import { z } from 'zod';
import { ApiError } from '../../api/api-client.ts';

// The create and edit forms of a proxy user: what they hold (text, as typed), the server's own rules and
// messages checked before anything is sent, the request each sends, and where a refusal is shown.

export interface ProxyUserFormValues {
  label: string;
  /** Create only: empty has the server generate one. */
  login: string;
  /** GB as typed; empty: no cap. */
  capGb: string;
  capPeriod: TrafficCapPeriod;
  /** As typed; empty: the plan's limit. */
  threads: string;
  /** Public addresses, one a line (commas and spaces also split). */
  allowlist: string;
}

export type ProxyUserFormField = keyof ProxyUserFormValues;

export const EMPTY_FORM: ProxyUserFormValues = {
  label: '',
  login: '',
  capGb: '',
  capPeriod: 'month',
  threads: '',
  allowlist: '',
};

/** The form's values for a user as it is. */
export function formValuesOf(user: ProxyUser): ProxyUserFormValues {
  return {
    label: user.label,
    login: user.login,
    capGb: user.traffic_cap ? String(user.traffic_cap.gb) : '',
    capPeriod: user.traffic_cap?.period ?? 'month',
    threads: user.threads === null ? '' : String(user.threads),
    allowlist: user.allowlist.join('\n'),
  };
}

const DECIMAL = /^\d+(\.\d+)?$/;
const WHOLE = /^\d+$/;

/** The cap as a number of GB, null when empty; NaN when it is not a cap the server takes. */
export function parseCapGb(value: string): number | null {
  const trimmed = value.trim();
  if (trimmed === '') {
    return null;
  }
  const gb = DECIMAL.test(trimmed) ? Number(trimmed) : Number.NaN;
  return gbToBytes(gb) === null ? Number.NaN : gb;
}

export function parseThreads(value: string): number | null {
  const trimmed = value.trim();
  return trimmed === '' ? null : WHOLE.test(trimmed) ? Number(trimmed) : Number.NaN;
}

export function parseAllowlist(value: string): string[] {
  return [...new Set(value.split(/[\s,]+/).filter((address) => address !== ''))];
}

/** Why an allowlist as typed is refused, as the server would word it; undefined when it is not. */
function allowlistProblem(value: string): string | undefined {
  const addresses = parseAllowlist(value);
  if (addresses.length > MAX_ALLOWLIST_ADDRESSES) {
    return proxyUserMessages.allowlistTooMany;
  }
  for (const address of addresses) {
    const canonical = canonicalIpAddress(address);
    if (canonical === null) {
      return `${allowlistMessages.invalidAddress} (“${address}”)`;
    }
    if (!isPublicAddress(canonical)) {
      return `${allowlistMessages.notPublic} (“${address}”)`;
    }
  }
  return undefined;
}

/** The form's rules: the server's, with its messages, against this plan's thread limit. */
export function proxyUserFormSchema(planThreads: number) {
  return z.object({
    label: text('Label', { shouldTrim: true }).max(
      PROXY_USER_LABEL_MAX_LENGTH,
      proxyUserMessages.labelTooLong,
    ),
    login: z
      .string()
      .trim()
      .refine((login) => login === '' || PROXY_USER_LOGIN.test(login), proxyUserMessages.loginFormat),
    capGb: z.string().refine((cap) => !Number.isNaN(parseCapGb(cap)), proxyUserMessages.capFormat),
    capPeriod: z.enum(TRAFFIC_CAP_PERIODS, { error: proxyUserMessages.capPeriodRequired }),
    threads: z.string().superRefine((value, context) => {
      const threads = parseThreads(value);
      if (threads === null) {
        return;
      }
      if (Number.isNaN(threads) || threads < 1) {
        context.addIssue({ code: 'custom', message: proxyUserMessages.threadsFormat });
      } else if (threads > planThreads) {
        context.addIssue({ code: 'custom', message: proxyUserMessages.threadsOverPlan(planThreads) });
      }
    }),
    allowlist: z.string().superRefine((value, context) => {
      const problem = allowlistProblem(value);
      if (problem) {
        context.addIssue({ code: 'custom', message: problem });
      }
    }),
  });
}

/** The cap's two fields as the API takes them: both null without a cap. */
function capFields(values: ProxyUserFormValues) {
  const gb = parseCapGb(values.capGb);
  return gb === null
    ? { traffic_cap_gb: null, cap_period: null }
    : { traffic_cap_gb: gb, cap_period: values.capPeriod };
}

/** A new user's request: only what was filled in (the server generates the login when absent). */
export function createBodyOf(values: ProxyUserFormValues): CreateProxyUserBody {
  const body: CreateProxyUserBody = {};
  if (values.login.trim() !== '') {
    body.login = values.login.trim();
  }
  if (values.label.trim() !== '') {
    body.label = values.label.trim();
  }
  const cap = capFields(values);
  if (cap.traffic_cap_gb !== null) {
    Object.assign(body, cap);
  }
  const threads = parseThreads(values.threads);
  if (threads !== null) {
    body.threads = threads;
  }
  const allowlist = parseAllowlist(values.allowlist);
  if (allowlist.length > 0) {
    body.allowlist = allowlist;
  }
  return body;
}

/** An edit's request: only what differs from the user as it is (absent: unchanged; null clears). */
export function changedFieldsOf(values: ProxyUserFormValues, user: ProxyUser): ProxyUserFields {
  const fields: ProxyUserFields = {};
  if (values.label.trim() !== user.label) {
    fields.label = values.label.trim();
  }
  const cap = capFields(values);
  if (
    cap.traffic_cap_gb !== (user.traffic_cap?.gb ?? null) ||
    cap.cap_period !== (user.traffic_cap?.period ?? null)
  ) {
    Object.assign(fields, cap);
  }
  const threads = parseThreads(values.threads);
  if (threads !== user.threads) {
    fields.threads = threads;
  }
  const allowlist = parseAllowlist(values.allowlist);
  if (allowlist.join('\n') !== user.allowlist.join('\n')) {
    fields.allowlist = allowlist;
  }
  return fields;
}

const FORM_FIELD_OF: Record<string, ProxyUserFormField> = {
  login: 'login',
  label: 'label',
  traffic_cap_gb: 'capGb',
  cap_period: 'capPeriod',
  threads: 'threads',
  allowlist: 'allowlist',
};

/**
 * The form field a refusal belongs under: the server names it (`field`) for the refusals of its rules;
 * null for the form as a whole (a schema-level refusal, a full or inactive plan, a failure).
 */
export function fieldOfError(error: unknown): ProxyUserFormField | null {
  if (!(error instanceof ApiError) || error.code !== 'VALIDATION_FAILED') {
    return null;
  }
  const field = error.body.field;
  return typeof field === 'string' ? (FORM_FIELD_OF[field] ?? null) : null;
}
