import type { GrammarName, GrammarSpec, NetworkAccount } from '../supply/grammar.ts';
import { grammarAdapter } from '../supply/grammars/index.ts';
import type { NetworkSource } from '../supply/source.ts';
import { parseUpstreamUrl } from '../tunnel/upstream.ts';
import {
  type FakeProxy,
  type ProxyAnswer,
  type ProxyGate,
  startGatedHttpProxy,
  startGatedSocks5Proxy,
} from './fake-upstream-proxies.ts';
import {
  type FakeExit,
  isRefusal,
  type ParsedVendorRequest,
  VENDOR_GRAMMARS,
  type VendorAnswer,
  type VendorGrammar,
} from './fake-vendor-grammars.ts';

export type { FakeExit, ParsedVendorRequest } from './fake-vendor-grammars.ts';

/**
 * Fake wholesale networks for tests: real proxy servers on 127.0.0.1 (HTTP CONNECT, or SOCKS5 with
 * RFC 1929 auth) that read each vendor's own grammar (./fake-vendor-grammars.ts) and answer as the vendor
 * documents: wrong account credentials, a parameter it does not know or a bad session id, no exit for the
 * target, an exhausted account. An accepted connection goes out from the matching exit's own loopback
 * address, so a local origin sees which exit carried it, and a vendor session keeps its exit for the
 * session's lifetime (a rotating connection gets a random matching exit).
 */

export type FakeNetworkAnswer = 'open' | 'auth' | 'bad-request' | 'quota' | 'no-exit' | 'failed';

export interface SeenConnection {
  username: string;
  password: string;
  /** What the vendor understood; absent when it refused the credentials themselves. */
  parsed: ParsedVendorRequest | undefined;
  answer: FakeNetworkAnswer;
  /** The exit's address, when it opened. */
  exit: string | undefined;
}

export interface FakeNetwork {
  grammar: Exclude<GrammarName, 'template'>;
  /** `http://USER:PASS@127.0.0.1:PORT` or `socks5://...`, the account's credentials URL-encoded. */
  url: string;
  port: number;
  account: NetworkAccount;
  /** Every connection, in order, with what the vendor made of it. */
  seen: SeenConnection[];
  /** Set to answer as the vendor does to an account out of traffic. */
  exhausted: boolean;
  /** Set to fail every connection that passes auth (an outage), as the vendor's generic failure. */
  failing: boolean;
  close(): Promise<void>;
}

/** An account each vendor could have issued (Bright Data's username names customer and zone; SOAX's a package). */
const DEFAULT_ACCOUNTS: Record<Exclude<GrammarName, 'template'>, NetworkAccount> = {
  brightdata: { username: 'brd-customer-hl_fake0001-zone-resi', password: 'zonepass1' },
  oxylabs: { username: 'fakeuser', password: 'fakepass1' },
  decodo: { username: 'spfake01', password: 'fakepass1' },
  iproyal: { username: 'fakeuser', password: 'fakepass1' },
  webshare: { username: 'fakeuser', password: 'fakepass1' },
  soax: { username: '123456', password: 'packagekey1' },
};

/** How each refusal is said over SOCKS5: refusals of the credentials fail RFC 1929, the rest a CONNECT reply. */
function refusalOf(reply: VendorAnswer, socks: 'auth' | number): ProxyAnswer {
  return { open: false, status: reply.status, reason: reply.reason, headers: reply.headers, socks };
}

function matches(grammar: VendorGrammar, exit: FakeExit, request: ParsedVendorRequest): boolean {
  return (
    (request.countries.length === 0 || request.countries.includes(exit.country)) &&
    (request.state === undefined || grammar.stateOf(exit) === request.state) &&
    (request.city === undefined || grammar.cityOf(exit) === request.city) &&
    (request.zip === undefined || exit.zip === request.zip) &&
    (request.asn === undefined || exit.asn === request.asn)
  );
}

const randomOf = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;

export async function startFakeNetwork(options: {
  grammar: Exclude<GrammarName, 'template'>;
  protocol?: 'http' | 'socks5';
  account?: NetworkAccount;
  exits: FakeExit[];
}): Promise<FakeNetwork> {
  const grammar = VENDOR_GRAMMARS[options.grammar];
  const account = options.account ?? DEFAULT_ACCOUNTS[options.grammar];
  const protocol = options.protocol ?? 'http';
  const sessions = new Map<string, { exit: FakeExit; untilMs: number }>();

  function exitFor(request: ParsedVendorRequest): FakeExit | undefined {
    const candidates = options.exits.filter((exit) => matches(grammar, exit, request));
    if (candidates.length === 0) {
      return undefined;
    }
    if (request.session === undefined) {
      return randomOf(candidates);
    }
    const held = sessions.get(request.session);
    if (held !== undefined && held.untilMs > Date.now() && candidates.includes(held.exit)) {
      return held.exit;
    }
    const exit = randomOf(candidates);
    sessions.set(request.session, { exit, untilMs: Date.now() + request.sessionSeconds * 1000 });
    return exit;
  }

  const gate: ProxyGate = (credentials) => {
    const username = credentials.username ?? '';
    const password = credentials.password ?? '';
    const record = (answer: FakeNetworkAnswer, parsed?: ParsedVendorRequest, exit?: FakeExit) =>
      network.seen.push({ username, password, parsed, answer, exit: exit?.address });
    const parsed = grammar.parse(username, password, account);
    if (isRefusal(parsed)) {
      record(parsed.refused);
      return refusalOf(parsed.answer, 'auth');
    }
    if (network.exhausted) {
      record('quota', parsed);
      return refusalOf(grammar.quota, 'auth');
    }
    if (network.failing) {
      record('failed', parsed);
      return refusalOf(grammar.failed, 0x01);
    }
    const exit = exitFor(parsed);
    if (exit === undefined) {
      record('no-exit', parsed);
      return refusalOf(grammar.noExit, 0x01);
    }
    record('open', parsed, exit);
    return { open: true, localAddress: exit.address };
  };

  const proxy: FakeProxy =
    protocol === 'http' ? await startGatedHttpProxy(gate) : await startGatedSocks5Proxy(gate);
  const userinfo = `${encodeURIComponent(account.username)}:${encodeURIComponent(account.password)}`;
  const network: FakeNetwork = {
    grammar: options.grammar,
    url: `${protocol}://${userinfo}@127.0.0.1:${proxy.port}`,
    port: proxy.port,
    account,
    seen: [],
    exhausted: false,
    failing: false,
    close: () => proxy.close(),
  };
  return network;
}

/**
 * A fake network as an active source of `poolType` (weight 100, $1.20 a GB), spelled in its own vendor's
 * grammar unless `spec` says otherwise; `fields` overrides any part.
 */
export function fakeNetworkSource(
  id: string,
  fake: Pick<FakeNetwork, 'url' | 'grammar'>,
  fields: Partial<NetworkSource> & { spec?: GrammarSpec } = {},
): NetworkSource {
  const proxy = parseUpstreamUrl(fake.url);
  if (!proxy) {
    throw new Error(`cannot read ${fake.url}`);
  }
  const { username, password, ...endpoint } = proxy;
  const { spec, ...rest } = fields;
  return {
    id,
    name: id,
    poolType: 'residential',
    kind: 'network',
    weight: 100,
    costPerGbCents: 120,
    state: 'active',
    endpoint,
    account: { username: username ?? '', password: password ?? '' },
    adapter: grammarAdapter(spec ?? { grammar: fake.grammar }),
    ...rest,
  };
}
