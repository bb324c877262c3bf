import { describe, expect, it } from 'vitest';
import {
  buildCurlCommand,
  buildProxyList,
  type GatewayEndpoints,
  maxListQuantity,
  PROXY_LIST_FORMATS,
  randomSessionIds,
} from './proxy-list.ts';

const endpoints: GatewayEndpoints = {
  host: 'gw.bytegate.io',
  httpPort: 823,
  socksPort: 824,
  stickyPorts: { first: 10000, last: 10099 },
};
const credentials = { login: 'a1b2c3', password: 'pw' };
const fixedIds = (count: number) => Array.from({ length: count }, (_, i) => `s${i + 1}`);

describe('buildCurlCommand', () => {
  it('rotating HTTP uses the HTTP port', () => {
    expect(
      buildCurlCommand({
        endpoints,
        credentials,
        protocol: 'http',
        session: 'rotating',
        targetUrl: 'https://ipinfo.io/json',
      }),
    ).toBe("curl --proxy http://gw.bytegate.io:823 --proxy-user 'a1b2c3:pw' 'https://ipinfo.io/json'");
  });

  it('SOCKS5 resolves names at the gateway (socks5h) and sticky uses the first sticky port', () => {
    expect(
      buildCurlCommand({
        endpoints,
        credentials,
        protocol: 'socks5',
        session: 'rotating',
        targetUrl: 'https://ipinfo.io/json',
      }),
    ).toContain('--proxy socks5h://gw.bytegate.io:824 ');
    expect(
      buildCurlCommand({
        endpoints,
        credentials,
        protocol: 'socks5',
        session: 'sticky',
        targetUrl: 'https://ipinfo.io/json',
      }),
    ).toContain('--proxy socks5h://gw.bytegate.io:10000 ');
  });

  it('quotes for the shell and brackets an IPv6 gateway address', () => {
    const command = buildCurlCommand({
      endpoints: { ...endpoints, host: '2001:db8::1' },
      credentials,
      protocol: 'http',
      session: 'rotating',
      targetUrl: "http://example.com/it's",
    });
    expect(command).toBe(
      `curl --proxy http://[2001:db8::1]:823 --proxy-user 'a1b2c3:pw' 'http://example.com/it'\\''s'`,
    );
  });
});

describe('buildProxyList', () => {
  const list = (format: (typeof PROXY_LIST_FORMATS)[number]['id'], extra: object = {}) =>
    buildProxyList({
      endpoints,
      credentials,
      protocol: 'http',
      session: 'sticky',
      format,
      quantity: 2,
      sessionIds: fixedIds,
      ...extra,
    });

  it('writes each of the six formats (providers.md section 4)', () => {
    expect(list('host:port:user:pass')).toEqual([
      'gw.bytegate.io:10000:a1b2c3:pw',
      'gw.bytegate.io:10001:a1b2c3:pw',
    ]);
    expect(list('user:pass@host:port')[0]).toBe('a1b2c3:pw@gw.bytegate.io:10000');
    expect(list('user:pass:host:port')[0]).toBe('a1b2c3:pw:gw.bytegate.io:10000');
    expect(list('host:port@user:pass')[0]).toBe('gw.bytegate.io:10000@a1b2c3:pw');
    expect(list('scheme://user:pass@host:port', { protocol: 'socks5' })[1]).toBe(
      'socks5://a1b2c3:pw@gw.bytegate.io:10001',
    );
    expect(list('host:port')).toEqual(['gw.bytegate.io:10000', 'gw.bytegate.io:10001']);
    expect(PROXY_LIST_FORMATS).toHaveLength(6);
  });

  it('rotating lines keep the protocol port and get a distinct sessid each', () => {
    expect(list('host:port:user:pass', { session: 'rotating', quantity: 3 })).toEqual([
      'gw.bytegate.io:823:a1b2c3__sessid.s1:pw',
      'gw.bytegate.io:823:a1b2c3__sessid.s2:pw',
      'gw.bytegate.io:823:a1b2c3__sessid.s3:pw',
    ]);
    expect(list('host:port', { session: 'rotating', protocol: 'socks5' })).toEqual([
      'gw.bytegate.io:824',
      'gw.bytegate.io:824',
    ]);
  });

  it('keeps the quantity between 1 and what the session type allows', () => {
    expect(list('host:port', { quantity: 0 })).toHaveLength(1);
    expect(list('host:port', { quantity: 5000 })).toHaveLength(100);
    expect(maxListQuantity(endpoints, 'sticky')).toBe(100);
    expect(list('host:port:user:pass', { session: 'rotating', quantity: 5000 })).toHaveLength(
      maxListQuantity(endpoints, 'rotating'),
    );
  });
});

describe('randomSessionIds', () => {
  it('answers distinct ids in the username grammar', () => {
    const ids = randomSessionIds(500);
    expect(new Set(ids).size).toBe(500);
    for (const id of ids) {
      expect(id).toMatch(/^[a-z0-9]{10}$/);
    }
  });
});
