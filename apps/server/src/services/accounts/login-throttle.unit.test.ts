import { describe, expect, it } from 'vitest';
import { type LoginAttempt, LoginThrottle, memoryFailureCounts } from './login-throttle.ts';

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
    memoryFailureCounts(() => now),
  );
  return { limits, advance: (ms: number) => (now += ms) };
}

const from = (address: string, trustedDevice: string | null = null): LoginAttempt => ({
  email: 'owner@example.com',
  address,
  trustedDevice,
});

async function failTimes(limits: LoginThrottle, attempt: LoginAttempt, times: number) {
  for (let i = 0; i < times; i++) {
    await limits.recordFailure(attempt);
  }
}

describe('the login throttle', async () => {
  it('holds an address back from an account after its failures, for the rest of the window', async () => {
    const { limits, advance } = throttle();
    await failTimes(limits, from('203.0.113.9'), 2);
    expect(await limits.waitMs(from('203.0.113.9'))).toBe(0);
    advance(5 * minute);
    await limits.recordFailure(from('203.0.113.9'));
    // The window started at the first failure: 10 of its 15 minutes are left.
    expect(await limits.waitMs(from('203.0.113.9'))).toBe(10 * minute);
    advance(10 * minute);
    expect(await limits.waitMs(from('203.0.113.9'))).toBe(0);
  });

  it('never holds the owner at another address back for a stranger’s failures', async () => {
    const { limits } = throttle();
    await failTimes(limits, from('203.0.113.9'), 3);
    expect(await limits.waitMs(from('203.0.113.9'))).toBeGreaterThan(0);
    expect(await limits.waitMs(from('198.51.100.20'))).toBe(0);
  });

  it('counts only failures: a success clears that address’s count for the account', async () => {
    const { limits } = throttle();
    await failTimes(limits, from('203.0.113.9'), 2);
    await limits.recordSuccess(from('203.0.113.9'));
    await failTimes(limits, from('203.0.113.9'), 2);
    expect(await limits.waitMs(from('203.0.113.9'))).toBe(0);
  });

  it('holds one address back that tries many accounts', async () => {
    const { limits } = throttle();
    for (let i = 0; i < 5; i++) {
      await limits.recordFailure({
        email: `user${i}@example.com`,
        address: '203.0.113.9',
        trustedDevice: null,
      });
    }
    expect(
      await limits.waitMs({ email: 'other@example.com', address: '203.0.113.9', trustedDevice: null }),
    ).toBe(15 * minute);
  });

  it('holds new browsers back from an account guessed at from many addresses, but not its own browser', async () => {
    const { limits } = throttle();
    for (let i = 0; i < 8; i++) {
      await limits.recordFailure(from(`203.0.113.${i}`));
    }
    expect(await limits.waitMs(from('198.51.100.20'))).toBe(60 * minute);
    expect(await limits.waitMs(from('198.51.100.20', 'device-hash'))).toBe(0);
  });

  it('gives a trusted browser a count of its own', async () => {
    const { limits } = throttle();
    await failTimes(limits, from('198.51.100.20', 'device-hash'), 3);
    expect(await limits.waitMs(from('198.51.100.20', 'device-hash'))).toBe(15 * minute);
    // Its failures did not count against the account or the address.
    expect(await limits.waitMs(from('198.51.100.20'))).toBe(0);
  });
});
