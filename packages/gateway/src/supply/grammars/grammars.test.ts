import { describe, expect, it } from 'vitest';
import type { GrammarAdapter, VendorSession } from '../grammar.ts';
import { GRAMMAR_NAMES } from '../grammar.ts';
import { grammarAdapter } from './index.ts';

/** What every adapter promises about sessions and lists, checked across all of them. */

const account = { username: 'acct', password: 'pw' };
const template = grammarAdapter({ grammar: 'template', template: '{user}[-cc-{country}][-s-{session}]' });
const adapters: GrammarAdapter[] = GRAMMAR_NAMES.map((name) =>
  name === 'template' ? template : grammarAdapter({ grammar: name }),
);

/** The session id in one connection's credentials, as each vendor writes it. */
const SESSION_ID: Record<string, RegExp> = {
  brightdata: /-session-([a-z0-9]{16})$/,
  oxylabs: /-sessid-([a-z0-9]{12})-sesstime-\d+$/,
  decodo: /-session-([a-z0-9]{12})-sessionduration-\d+$/,
  iproyal: /_session-([A-Za-z0-9]{8})_lifetime-\w+$/,
  webshare: /-([1-9][0-9]{9})$/,
  soax: /-sessionid-([a-z0-9]{12})-sessionlength-\d+$/,
  template: /-s-([a-z0-9]{16})$/,
};

const sessionIdOf = (adapter: GrammarAdapter, session: VendorSession) => {
  const { username, password } = adapter.credentials(account, {}, session);
  const match = (SESSION_ID[adapter.name] as RegExp).exec(adapter.name === 'iproyal' ? password : username);
  expect(match, `${adapter.name}: ${username}:${password}`).not.toBeNull();
  return match?.[1] as string;
};

describe.each(adapters.map((adapter) => [adapter.name, adapter] as const))('%s', (_name, adapter) => {
  it('maps each session key to a valid vendor id, the same every time, different for different keys', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 2000; i += 1) {
      const key = `user${i % 7}:residential:sess-${i}:0`;
      const id = sessionIdOf(adapter, { key, minutes: 30 });
      expect(sessionIdOf(adapter, { key, minutes: 30 })).toBe(id);
      ids.add(id);
    }
    expect(ids.size).toBe(2000);
  });

  it('picks one country of a list: the same for a session, any of them without one', () => {
    const targeting = { countries: ['DE', 'AU'] };
    const spelled = (country: string) => adapter.credentials(account, { countries: [country] }, undefined);
    // The country a connection's credentials name: they begin as that country's alone do.
    const countryOf = (credentials: { username: string; password: string }) =>
      ['DE', 'AU'].find((code) => {
        const alone = spelled(code);
        return (
          credentials.username.startsWith(alone.username) && credentials.password.startsWith(alone.password)
        );
      });
    if (adapter.name === 'webshare') {
      // Webshare takes the list itself.
      expect(adapter.credentials(account, targeting, undefined).username).toBe('acct-de-au-rotate');
      return;
    }
    const picked = new Set<string | undefined>();
    for (let i = 0; i < 40; i += 1) {
      const session = { key: `k${i}`, minutes: 30 };
      const country = countryOf(adapter.credentials(account, targeting, session));
      expect(country).toBeDefined();
      expect(countryOf(adapter.credentials(account, targeting, session))).toBe(country);
      picked.add(country);
    }
    expect(picked).toEqual(new Set(['DE', 'AU']));
    const rotating = new Set(
      Array.from({ length: 60 }, () => countryOf(adapter.credentials(account, targeting, undefined))),
    );
    expect(rotating).toEqual(new Set(['DE', 'AU']));
  });

  it('never refuses for the anonymous filter, always for exclusions', () => {
    expect(adapter.cannotExpress({ countries: ['US'], anonymous: true })).toBeNull();
    expect(adapter.cannotExpress({ countries: ['US'], anonymous: false })).toBeNull();
    expect(adapter.cannotExpress({ excludeCountries: ['RU', 'BY'] })).toBe('excluded countries');
  });

  it('reads an RFC 1929 failure as our credentials and a SOCKS5 reply as a failure', () => {
    expect(adapter.classify({ protocol: 'socks5', reply: 'auth' })).toBe('auth');
    for (const reply of [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]) {
      expect(adapter.classify({ protocol: 'socks5', reply })).toBe('failed');
    }
    expect(adapter.classify({ protocol: 'http', status: 407, headers: {} })).toBe('auth');
  });
});

describe('grammarAdapter', () => {
  it('answers the vendor adapters by name and refuses an unknown one', () => {
    expect(grammarAdapter({ grammar: 'oxylabs' }).name).toBe('oxylabs');
    expect(() => grammarAdapter({ grammar: 'netnut' } as never)).toThrow('unknown grammar "netnut"');
  });
});
