import { describe, expect, it } from 'vitest';
import { exitInputSchema, maskUpstreamUrl, toNewExit } from './exit-input.ts';

describe('exit input', () => {
  const base = { name: 'Frankfurt 1', pool: 'datacenter', country: 'de' };

  it('takes a direct exit with a bound address, and upper-cases the country', () => {
    const exit = toNewExit(exitInputSchema.parse({ ...base, localAddress: '203.0.113.7' }));
    expect(exit).toMatchObject({
      kind: 'direct',
      country: 'DE',
      localAddress: '203.0.113.7',
      upstreamUrl: null,
    });
  });

  it('takes an upstream exit with an http or socks5 URL', () => {
    for (const upstreamUrl of [
      'socks5://user:pass@198.51.100.4:1080',
      'socks5h://198.51.100.4:1080',
      'http://user:pass@proxy.example.net:3128',
      'http://proxy.example.net:80',
      'http://[2001:db8::7]:8080',
    ]) {
      const parsed = exitInputSchema.safeParse({ ...base, kind: 'upstream', upstreamUrl });
      expect(parsed.success, upstreamUrl).toBe(true);
      expect(parsed.data && toNewExit(parsed.data)).toMatchObject({ kind: 'upstream', upstreamUrl });
    }
  });

  it('refuses an upstream exit without a usable proxy URL, and a direct one with a URL', () => {
    const message = (input: object) =>
      exitInputSchema.safeParse({ ...base, ...input }).error?.issues[0]?.message;
    expect(message({ kind: 'upstream' })).toBe(
      'an upstream exit needs upstreamUrl, and a direct exit has none',
    );
    // An HTTPS proxy (CONNECT over TLS) is a proxy URL too; without its port it is not.
    expect(message({ kind: 'upstream', upstreamUrl: 'https://u:p@p.example:443' })).toBeUndefined();
    expect(message({ kind: 'upstream', upstreamUrl: 'https://p.example' })).toMatch(
      /^upstreamUrl must be an http:\/\/, https:\/\/ or socks5:\/\//,
    );
    expect(message({ kind: 'upstream', upstreamUrl: 'socks5://p.example' })).toMatch(/with a host and port/);
    expect(message({ upstreamUrl: 'socks5://p.example:1080' })).toBe(
      'an upstream exit needs upstreamUrl, and a direct exit has none',
    );
    for (const upstreamUrl of [
      'socks4://p.example:1080',
      'http://p.example:3128/path',
      'http://p.example:3128/?q=1',
      'p.example:3128',
      'http://:3128',
      'socks5://p.example:0',
    ]) {
      expect(message({ kind: 'upstream', upstreamUrl }), upstreamUrl).toMatch(/^upstreamUrl must be/);
    }
    expect(
      message({ kind: 'upstream', upstreamUrl: 'socks5://p.example:1080', localAddress: '203.0.113.7' }),
    ).toBe('localAddress is for direct exits only');
  });

  it('masks the upstream password for printing, whatever it holds', () => {
    expect(maskUpstreamUrl('socks5://user:s3cret@198.51.100.4:1080')).toBe(
      'socks5://user:***@198.51.100.4:1080',
    );
    expect(maskUpstreamUrl('http://us%40r:p@ss@proxy.example.net:80')).toBe(
      'http://us%40r:***@proxy.example.net:80',
    );
    expect(maskUpstreamUrl('http://proxy.example.net:3128')).toBe('http://proxy.example.net:3128');
    // Not a URL the gateway reads: a password could sit outside the userinfo, so nothing is shown.
    expect(maskUpstreamUrl('http://user:pa/ss@proxy.example.net:3128')).toBe('(invalid upstream URL)');
  });
});
