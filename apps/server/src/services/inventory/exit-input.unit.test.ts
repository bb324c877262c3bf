import { describe, expect, it } from 'vitest';
import { exitInputSchema, toNewExit } from './exit-input.ts';

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
      'http://user:pass@proxy.example.net:3128',
    ]) {
      const parsed = exitInputSchema.safeParse({ ...base, kind: 'upstream', upstreamUrl });
      expect(parsed.success, upstreamUrl).toBe(true);
    }
  });

  it('refuses an upstream exit without a usable proxy URL, and a direct one with a URL', () => {
    const message = (input: object) =>
      exitInputSchema.safeParse({ ...base, ...input }).error?.issues[0]?.message;
    expect(message({ kind: 'upstream' })).toBe(
      'an upstream exit needs upstreamUrl, and a direct exit has none',
    );
    expect(message({ kind: 'upstream', upstreamUrl: 'https://p.example:443' })).toMatch(
      /^upstreamUrl must be an http:\/\/ or socks5:\/\//,
    );
    expect(message({ kind: 'upstream', upstreamUrl: 'socks5://p.example' })).toMatch(/with a host and port/);
    expect(message({ upstreamUrl: 'socks5://p.example:1080' })).toBe(
      'an upstream exit needs upstreamUrl, and a direct exit has none',
    );
  });
});
