import { describe, expect, it } from 'vitest';
import { formatAuthority, normalizeFingerprint, parseAuthority } from './protocol.ts';
import { TargetGuard } from './target-guard.ts';

describe('the agent protocol', () => {
  it('writes and reads CONNECT authorities, IPv6 in brackets', () => {
    expect(formatAuthority('example.com', 443)).toBe('example.com:443');
    expect(formatAuthority('2001:db8::1', 80)).toBe('[2001:db8::1]:80');
    expect(parseAuthority('[2001:db8::1]:80')).toEqual({ host: '2001:db8::1', port: 80 });
    expect(parseAuthority('example.com:443')).toEqual({ host: 'example.com', port: 443 });
    for (const bad of [
      undefined,
      '',
      'example.com',
      'example.com:0',
      'example.com:70000',
      'a b:80',
      '[::1:80',
    ]) {
      expect(parseAuthority(bad), String(bad)).toBeNull();
    }
  });

  it('normalises a pinned fingerprint, and refuses anything else', () => {
    const hex = 'ab'.repeat(32);
    const expected = Array(32).fill('AB').join(':');
    expect(normalizeFingerprint(hex)).toBe(expected);
    expect(normalizeFingerprint(expected.toLowerCase())).toBe(expected);
    expect(normalizeFingerprint(`sha256:${hex}`)).toBe(expected);
    expect(normalizeFingerprint('ab'.repeat(31))).toBeNull();
    expect(normalizeFingerprint('zz'.repeat(32))).toBeNull();
  });
});

describe("the agent's target guard", () => {
  it('refuses private addresses and mail ports; a lab range passes only when listed', async () => {
    const guard = new TargetGuard(['127.0.0.10/32']);
    expect(await guard.check('127.0.0.10', 80)).toEqual({ address: '127.0.0.10', family: 4 });
    expect(await guard.check('127.0.0.11', 80)).toMatchObject({ refusal: 'private-address' });
    expect(await guard.check('192.168.0.1', 443)).toMatchObject({ refusal: 'private-address' });
    expect(await guard.check('203.0.113.9', 25)).toMatchObject({ refusal: 'blocked-port' });
    expect(await new TargetGuard().check('127.0.0.10', 80)).toMatchObject({ refusal: 'private-address' });
    expect(() => new TargetGuard(['not-a-range'])).toThrow(/Not an address range/);
    expect(() => new TargetGuard(['10.0.0.0/33'])).toThrow(/Not an address range/);
  });
});
