import { describe, expect, it } from 'vitest';
import { type LoginAttempt, LoginThrottle } from './login-throttle.ts';

const minute = 60_000;

function throttle() {
  let now = 0;
  const limits = new LoginThrottle(
    {
      perAccountAndAddress: { max: 3, windowMs: 15 * minute },
      perAddress: { max: 5, windowMs: 15 * minute },
      perAccountUntrusted: { max: 8, windowMs: 60 * minute },
      perTrustedDevice: { max: 3, windowMs: 15 * minute },
    },
    () => now,
  );
  return { limits, advance: (ms: number) => (now += ms) };
}

const from = (address: string, trustedDevice: string | null = null): LoginAttempt => ({
  email: 'owner@example.com',
  address,
  trustedDevice,
});

function failTimes(limits: LoginThrottle, attempt: LoginAttempt, times: number) {
  for (let i = 0; i < times; i++) {
    limits.recordFailure(attempt);
  }
}

describe('the login throttle', () => {
  it('holds an address back from an account after its failures, for the rest of the window', () => {
    const { limits, advance } = throttle();
    failTimes(limits, from('203.0.113.9'), 2);
    expect(limits.waitMs(from('203.0.113.9'))).toBe(0);
    advance(5 * minute);
    limits.recordFailure(from('203.0.113.9'));
    // The window started at the first failure: 10 of its 15 minutes are left.
    expect(limits.waitMs(from('203.0.113.9'))).toBe(10 * minute);
    advance(10 * minute);
    expect(limits.waitMs(from('203.0.113.9'))).toBe(0);
  });

  it('never holds the owner at another address back for a stranger’s failures', () => {
    const { limits } = throttle();
    failTimes(limits, from('203.0.113.9'), 3);
    expect(limits.waitMs(from('203.0.113.9'))).toBeGreaterThan(0);
    expect(limits.waitMs(from('198.51.100.20'))).toBe(0);
  });

  it('counts only failures: a success clears that address’s count for the account', () => {
    const { limits } = throttle();
    failTimes(limits, from('203.0.113.9'), 2);
    limits.recordSuccess(from('203.0.113.9'));
    failTimes(limits, from('203.0.113.9'), 2);
    expect(limits.waitMs(from('203.0.113.9'))).toBe(0);
  });

  it('holds one address back that tries many accounts', () => {
    const { limits } = throttle();
    for (let i = 0; i < 5; i++) {
      limits.recordFailure({ email: `user${i}@example.com`, address: '203.0.113.9', trustedDevice: null });
    }
    expect(limits.waitMs({ email: 'other@example.com', address: '203.0.113.9', trustedDevice: null })).toBe(
      15 * minute,
    );
  });

  it('holds new browsers back from an account guessed at from many addresses, but not its own browser', () => {
    const { limits } = throttle();
    for (let i = 0; i < 8; i++) {
      limits.recordFailure(from(`203.0.113.${i}`));
    }
    expect(limits.waitMs(from('198.51.100.20'))).toBe(60 * minute);
    expect(limits.waitMs(from('198.51.100.20', 'device-hash'))).toBe(0);
  });

  it('gives a trusted browser a count of its own', () => {
    const { limits } = throttle();
    failTimes(limits, from('198.51.100.20', 'device-hash'), 3);
    expect(limits.waitMs(from('198.51.100.20', 'device-hash'))).toBe(15 * minute);
    // Its failures did not count against the account or the address.
    expect(limits.waitMs(from('198.51.100.20'))).toBe(0);
  });
});
