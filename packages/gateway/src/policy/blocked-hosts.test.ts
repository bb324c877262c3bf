import { describe, expect, it } from 'vitest';
import { DEFAULT_BLOCKED_HOSTS, DomainSet } from './blocked-hosts.ts';

describe('DomainSet', () => {
  const set = new DomainSet(['gov', 'paypal.com', 'Example.ORG.']);

  it('matches the domain and every name under it, on label boundaries', () => {
    expect(set.match('paypal.com')).toBe('paypal.com');
    expect(set.match('www.paypal.com')).toBe('paypal.com');
    expect(set.match('api.sandbox.paypal.com')).toBe('paypal.com');
    expect(set.match('nasa.gov')).toBe('gov');
    expect(set.match('notpaypal.com')).toBeUndefined();
    expect(set.match('paypal.com.evil.net')).toBeUndefined();
    expect(set.match('nasagov.com')).toBeUndefined();
  });

  it('ignores case and a trailing dot, on both sides', () => {
    expect(set.match('WWW.PayPal.COM.')).toBe('paypal.com');
    expect(set.match('a.example.org')).toBe('example.org');
  });

  it('never matches an IP literal', () => {
    expect(set.match('127.0.0.1')).toBeUndefined();
    expect(set.match('[::1]')).toBeUndefined();
    expect(new DomainSet(['1']).match('10.0.0.1')).toBeUndefined();
  });
});

describe('the default blocked hosts', () => {
  it('cover the blocked-website categories named in the SPEC (Help Center)', () => {
    for (const host of [
      'www.irs.gov',
      'army.mil',
      'www.gov.uk',
      'www.paypal.com',
      'popads.net',
      'visa.vfsglobal.com',
    ]) {
      expect(DEFAULT_BLOCKED_HOSTS.match(host), host).toBeDefined();
    }
    for (const host of ['example.com', 'github.com', 'ipinfo.io', 'localhost']) {
      expect(DEFAULT_BLOCKED_HOSTS.match(host), host).toBeUndefined();
    }
  });
});
