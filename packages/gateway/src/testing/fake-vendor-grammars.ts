import type { GrammarName, NetworkAccount } from '../supply/grammar.ts';

/**
 * Each vendor's own grammar as its gateway reads it, written from the vendor's docs (providers.md §1a/1b)
 * and NOT from the adapters in supply/grammars, which are never imported here: an adapter that spells
 * something wrong meets the refusal the real network would give. Only the targeting we model and
 * sessions; a documented parameter we never send (Oxylabs `cn`, SOAX `isp`...) is refused as unknown.
 */

/** One exit of a fake network: outgoing connections bind to `address` (127.0.0.x, all local on Linux). */
export interface FakeExit {
  address: string;
  /** Upper-case ISO code. */
  country: string;
  /** Lower-case names with spaces, as our targeting writes them ("new york"). */
  state?: string;
  city?: string;
  /** The state's two-letter code, which is how Bright Data names states. */
  stateCode?: string;
  zip?: string;
  asn?: number;
}

/** What the vendor understood a connection to ask for. */
export interface ParsedVendorRequest {
  /** Countries it picks from, upper-case (one, or Webshare's list; none for "any"). */
  countries: string[];
  /** The other values as the vendor spells them ("new_york", "ny", "us_california"). */
  state?: string;
  city?: string;
  zip?: string;
  asn?: number;
  /** The vendor session id; absent for a rotating connection. */
  session?: string;
  /** How long the vendor keeps a session's exit. */
  sessionSeconds: number;
}

export interface VendorAnswer {
  status: number;
  reason: string;
  headers: Record<string, string>;
}

/** The vendor refused the credentials themselves: the account's, or their spelling. */
export interface FakeRefusal {
  refused: 'auth' | 'bad-request';
  answer: VendorAnswer;
}

export interface VendorGrammar {
  parse(username: string, password: string, account: NetworkAccount): ParsedVendorRequest | FakeRefusal;
  /** How the vendor names an exit's state and city, to match them against a request. */
  stateOf(exit: FakeExit): string | undefined;
  cityOf(exit: FakeExit): string | undefined;
  /** The vendor's answers to an exhausted account, a target it has no exit for, and any other failure. */
  quota: VendorAnswer;
  noExit: VendorAnswer;
  failed: VendorAnswer;
}

const answer = (status: number, reason: string, headers: Record<string, string> = {}): VendorAnswer => ({
  status,
  reason,
  headers,
});
const refuse = (refused: FakeRefusal['refused'], reply: VendorAnswer): FakeRefusal => ({
  refused,
  answer: reply,
});
export const isRefusal = (parsed: ParsedVendorRequest | FakeRefusal): parsed is FakeRefusal =>
  'refused' in parsed;

const words = (name: string | undefined, separator: string) => name?.split(' ').join(separator);

/** The text after `base` when `text` is `base` or `base-...`; null when it is some other account's. */
function after(text: string, base: string): string | null {
  return text === base || text.startsWith(`${base}-`) ? text.slice(base.length) : null;
}

type Problem = { problem: 'malformed' | 'unknown' | 'duplicate' | 'invalid'; key: string };

/** `-key-value` pairs (the hyphen grammars), each key known to `rules`, at most once, its value valid. */
function readPairs(
  pairs: Array<[string, string]> | null,
  rules: Record<string, RegExp>,
): Map<string, string> | Problem {
  if (pairs === null) {
    return { problem: 'malformed', key: '' };
  }
  const values = new Map<string, string>();
  for (const [key, value] of pairs) {
    const rule = rules[key];
    if (rule === undefined) {
      return { problem: 'unknown', key };
    }
    if (values.has(key)) {
      return { problem: 'duplicate', key };
    }
    if (!rule.test(value)) {
      return { problem: 'invalid', key };
    }
    values.set(key, value);
  }
  return values;
}

function hyphenPairs(rest: string): Array<[string, string]> | null {
  const tokens = rest === '' ? [] : rest.slice(1).split('-');
  if (tokens.length % 2 !== 0) {
    return null;
  }
  return Array.from({ length: tokens.length / 2 }, (_, i) => [tokens[2 * i] ?? '', tokens[2 * i + 1] ?? '']);
}

const describe = (problem: Problem) =>
  problem.problem === 'malformed'
    ? 'parameters do not pair up'
    : `${problem.problem} parameter "${problem.key}"`;

const isProblem = (read: Map<string, string> | Problem): read is Problem => 'problem' in read;

const number = (text: string | undefined) => (text === undefined ? undefined : Number(text));

/** Bright Data: `brd-customer-<id>-zone-<zone>` (the account's username) then lower-case `-key-value` pairs. */
const brightdata: VendorGrammar = {
  parse(username, password, account) {
    const rest = after(username, account.username);
    if (rest === null || password !== account.password) {
      return refuse(
        'auth',
        answer(407, 'Proxy Authentication Required', { 'x-brd-error': 'Invalid zone credentials' }),
      );
    }
    const read = readPairs(hyphenPairs(rest), {
      country: /^[a-z]{2}$/,
      state: /^[a-z]{2}$/,
      city: /^[a-z]+$/,
      zip: /^\d+$/,
      asn: /^\d+$/,
      session: /^[A-Za-z0-9]+$/,
    });
    if (isProblem(read)) {
      return refuse('bad-request', answer(400, 'Bad Request', { 'x-brd-error': describe(read) }));
    }
    if ((read.has('state') || read.has('city')) && !read.has('country')) {
      return refuse(
        'bad-request',
        answer(400, 'Bad Request', { 'x-brd-error': 'state and city need a country' }),
      );
    }
    const country = read.get('country');
    return {
      countries: country === undefined ? [] : [country.toUpperCase()],
      state: read.get('state'),
      city: read.get('city'),
      zip: read.get('zip'),
      asn: number(read.get('asn')),
      session: read.get('session'),
      sessionSeconds: 600,
    };
  },
  stateOf: (exit) => exit.stateCode,
  cityOf: (exit) => words(exit.city, ''),
  quota: answer(402, 'Payment Required', {
    'x-brd-err-code': 'client_10100',
    'x-brd-error': 'Zone usage limit reached',
  }),
  noExit: answer(502, 'Bad Gateway', { 'x-brd-err-code': 'no_peers', 'x-brd-error': 'No peers available' }),
  failed: answer(502, 'Bad Gateway', { 'x-brd-error': 'Residential Failed (target connection failed)' }),
};

const OXYLABS_AUTH =
  'Access denied: user authentication failed. Please check your credentials and try again.';

/** Oxylabs: `customer-USER` then `-key-value` pairs; ASN applies only without a country. */
const oxylabs: VendorGrammar = {
  parse(username, password, account) {
    const rest = after(username, `customer-${account.username}`);
    if (rest === null || password !== account.password) {
      return refuse('auth', answer(407, 'Access Denied', { 'x-error-description': OXYLABS_AUTH }));
    }
    const bad = refuse(
      'bad-request',
      answer(400, 'Bad Request', { 'x-error-description': 'Bad request: unsupported parameters were used.' }),
    );
    const read = readPairs(hyphenPairs(rest), {
      cc: /^[A-Za-z]{2}$/,
      st: /^us_[a-z_]+$/i,
      city: /^[A-Za-z_]+$/,
      postalcode: /^\d{5}$/,
      ASN: /^\d+$/,
      sessid: /^[A-Za-z0-9]+$/,
      sesstime: /^\d+$/,
    });
    if (isProblem(read)) {
      return bad;
    }
    const cc = read.get('cc')?.toUpperCase();
    const sesstime = number(read.get('sesstime'));
    if (
      (sesstime !== undefined && (sesstime < 1 || sesstime > 1440 || !read.has('sessid'))) ||
      (read.has('postalcode') && cc !== 'US')
    ) {
      return bad;
    }
    const state = read.get('st')?.toLowerCase();
    return {
      countries: cc !== undefined ? [cc] : state !== undefined ? ['US'] : [],
      state,
      city: read.get('city')?.toLowerCase(),
      zip: read.get('postalcode'),
      asn: cc === undefined ? number(read.get('ASN')) : undefined,
      session: read.get('sessid'),
      sessionSeconds: (sesstime ?? 10) * 60,
    };
  },
  stateOf: (exit) =>
    exit.state === undefined ? undefined : `${exit.country.toLowerCase()}_${words(exit.state, '_')}`,
  cityOf: (exit) => words(exit.city, '_'),
  quota: answer(407, 'Access Denied', {
    'x-error-description':
      'Access denied: traffic limit reached. Please contact support or your account manager.',
  }),
  noExit: answer(502, 'Bad Gateway', {
    'x-error-description': 'Bad gateway: exit node not found (session ended). Try using different filters.',
  }),
  failed: answer(502, 'Bad Gateway', { 'x-error-description': 'Bad gateway: we have encountered an error.' }),
};

/** Decodo: `user-USER` then `-key-value` pairs. It documents no error codes: plain statuses. */
const decodo: VendorGrammar = {
  parse(username, password, account) {
    const rest = after(username, `user-${account.username}`);
    if (rest === null || password !== account.password) {
      return refuse('auth', answer(407, 'Proxy Authentication Required'));
    }
    const read = readPairs(hyphenPairs(rest), {
      country: /^[A-Za-z]{2}$/,
      city: /^[A-Za-z_]+$/,
      session: /^[A-Za-z0-9]+$/,
      sessionduration: /^\d+$/,
    });
    const duration = isProblem(read) ? undefined : number(read.get('sessionduration'));
    if (
      isProblem(read) ||
      (duration !== undefined && (duration < 1 || duration > 1440 || !read.has('session')))
    ) {
      return refuse('bad-request', answer(400, 'Bad Request'));
    }
    const country = read.get('country');
    return {
      countries: country === undefined ? [] : [country.toUpperCase()],
      city: read.get('city')?.toLowerCase(),
      session: read.get('session'),
      sessionSeconds: (duration ?? 10) * 60,
    };
  },
  stateOf: () => undefined,
  cityOf: (exit) => words(exit.city, '_'),
  quota: answer(402, 'Payment Required'),
  noExit: answer(502, 'Bad Gateway'),
  failed: answer(502, 'Bad Gateway'),
};

const LIFETIME_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** IPRoyal: the username as is; `_key-value` parameters after the password. Status codes only. */
const iproyal: VendorGrammar = {
  parse(username, password, account) {
    const rest = password.startsWith(account.password) ? password.slice(account.password.length) : null;
    if (username !== account.username || rest === null || (rest !== '' && !rest.startsWith('_'))) {
      return refuse('auth', answer(407, 'Proxy Authentication Required'));
    }
    const pairs =
      rest === ''
        ? []
        : rest
            .slice(1)
            .split('_')
            .map((part): [string, string] => {
              const dash = part.indexOf('-');
              return dash === -1 ? [part, ''] : [part.slice(0, dash), part.slice(dash + 1)];
            });
    const read = readPairs(pairs, {
      country: /^[a-z]{2}$/,
      state: /^[a-z]+$/,
      city: /^[a-z]+$/,
      session: /^[A-Za-z0-9]{8}$/,
      lifetime: /^\d+[smhd]$/,
    });
    const life = isProblem(read) ? undefined : read.get('lifetime');
    const seconds =
      life === undefined ? undefined : Number(life.slice(0, -1)) * (LIFETIME_UNITS[life.slice(-1)] ?? 0);
    // "An inability to verify or resolve a request component" is IPRoyal's 500.
    if (
      isProblem(read) ||
      (seconds !== undefined && (seconds < 1 || seconds > 7 * 86_400 || !read.has('session')))
    ) {
      return refuse('bad-request', answer(500, 'Internal Error'));
    }
    const country = read.get('country');
    return {
      countries: country === undefined ? [] : [country.toUpperCase()],
      state: read.get('state'),
      city: read.get('city'),
      session: read.get('session'),
      sessionSeconds: seconds ?? 600,
    };
  },
  stateOf: (exit) => words(exit.state, ''),
  cityOf: (exit) => words(exit.city, ''),
  quota: answer(402, 'Payment Required'),
  noExit: answer(503, 'No Exits Available'),
  failed: answer(504, 'Exit Connection Failed'),
};

/** Webshare: positional `USER-{countries}-{city_x}-{session|rotate}`. */
const webshare: VendorGrammar = {
  parse(username, password, account) {
    const rest = after(username, account.username);
    if (rest === null || password !== account.password) {
      return refuse('auth', answer(407, 'Proxy Authentication Required'));
    }
    const request: ParsedVendorRequest = { countries: [], sessionSeconds: 600 };
    // 0: countries, 1: the city, 2: the session or rotate; each token in its place, once.
    let stage = 0;
    for (const token of rest === '' ? [] : rest.slice(1).split('-')) {
      if (/^[a-z]{2}$/i.test(token) && stage === 0) {
        request.countries.push(token.toUpperCase());
      } else if (/^city_[a-z_]+$/i.test(token) && stage === 0) {
        request.city = token.slice('city_'.length).toLowerCase();
        stage = 1;
      } else if ((/^\d+$/.test(token) || token === 'rotate') && stage < 2) {
        request.session = token === 'rotate' ? undefined : token;
        stage = 2;
      } else {
        return refuse('bad-request', answer(400, 'Bad Request'));
      }
    }
    return request;
  },
  stateOf: () => undefined,
  cityOf: (exit) => words(exit.city, '_'),
  quota: answer(402, 'Payment Required'),
  noExit: answer(502, 'Bad Gateway'),
  failed: answer(502, 'Bad Gateway'),
};

const SOAX_CODES: Record<Problem['problem'], [string, string]> = {
  malformed: ['ERR_UNKNOWN_PARAM', 'Unknown parameter name'],
  unknown: ['ERR_UNKNOWN_PARAM', 'Unknown parameter name'],
  duplicate: ['ERR_DUPLICATE_PARAM', 'Duplicate parameter'],
  invalid: ['ERR_INVALID_VALUE', 'Invalid value for parameter'],
};
const soaxError = (status: number, reason: string, code: string, detail: string) =>
  answer(status, reason, { 'x-soax-error': code, 'x-soax-detail': detail });

/** SOAX: `package-<id>` then lower-case `-key-value` rules; the password is the package key. */
const soax: VendorGrammar = {
  parse(username, password, account) {
    const base = account.username.startsWith('package-') ? account.username : `package-${account.username}`;
    const rest = after(username, base);
    if (rest === null || password !== account.password) {
      return refuse(
        'auth',
        soaxError(407, 'Proxy Authentication Required', 'AUTH_FAILED', 'Authentication failed'),
      );
    }
    const read = readPairs(hyphenPairs(rest), {
      country: /^([a-z]{2}|any)$/,
      region: /^[a-z_+]+$/,
      city: /^[a-z_+]+$/,
      sessionid: /^[A-Za-z0-9]+$/,
      sessionlength: /^\d+$/,
    });
    if (isProblem(read)) {
      const [code, detail] = SOAX_CODES[read.problem];
      return refuse('bad-request', soaxError(400, 'Bad Request', code, detail));
    }
    const length = number(read.get('sessionlength'));
    if (length !== undefined && (length > 86_400 || !read.has('sessionid'))) {
      return refuse(
        'bad-request',
        soaxError(400, 'Bad Request', 'ERR_INVALID_COMBINATION', 'sessionlength needs sessionid'),
      );
    }
    const country = read.get('country');
    return {
      countries: country === undefined || country === 'any' ? [] : [country.toUpperCase()],
      // The older help center wrote `new+york`, the newer docs `new_york`: both are read.
      state: read.get('region')?.replaceAll('+', '_'),
      city: read.get('city')?.replaceAll('+', '_'),
      session: length === 0 ? undefined : read.get('sessionid'),
      sessionSeconds: length ?? 360,
    };
  },
  stateOf: (exit) => words(exit.state, '_'),
  cityOf: (exit) => words(exit.city, '_'),
  quota: answer(402, 'Payment Required'),
  noExit: answer(502, 'Bad Gateway'),
  failed: answer(502, 'Bad Gateway'),
};

export const VENDOR_GRAMMARS: Readonly<Record<Exclude<GrammarName, 'template'>, VendorGrammar>> = {
  brightdata,
  oxylabs,
  decodo,
  iproyal,
  webshare,
  soax,
};
