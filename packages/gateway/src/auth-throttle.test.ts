import { describe, expect, it } from 'vitest';
import { AuthThrottle, type FailureCount, LocalAuthFailures } from './auth-throttle.ts';
import { GatewayError } from './errors.ts';

const wrong = () => new GatewayError('NO_USER', 'Wrong proxy login or password');
const LIMITS = { pairSlowAfter: 100, addressSlowAfter: 100, loginSlowAfter: 100, pairRefuseAfter: 3 };

describe('the failed-login throttle', () => {
  it('holds at most its fixed number of keys, however many addresses fail', async () => {
    const throttle = new AuthThrottle(LIMITS, undefined, 300);
    for (let i = 0; i < 2000; i++) {
      await throttle.failed(`10.0.${i >> 8}.${i & 255}`, `bglogin${i}`, wrong());
    }
    expect(throttle.size).toBeLessThanOrEqual(300);
    const local = new LocalAuthFailures(10);
    local.add(
      Array.from({ length: 50 }, (_, i) => `k${i}`),
      60_000,
    );
    expect(local.size).toBe(10);
  });

  it('counts in the shared counts when they answer, and in its own when they do not', async () => {
    const fleet = new LocalAuthFailures();
    let isAway = false;
    const shared = {
      add: (keys: readonly string[], windowMs: number): FailureCount[] => {
        if (isAway) {
          throw new Error('Redis is away');
        }
        return fleet.add(keys, windowMs);
      },
      clear: (key: string) => fleet.clear(key),
    };
    // Two gateways sharing one count: failures on either add up.
    const one = new AuthThrottle(LIMITS, shared);
    const two = new AuthThrottle(LIMITS, shared);
    expect((await one.failed('8.8.8.8', 'bgvictim', wrong())).code).toBe('NO_USER');
    expect((await two.failed('8.8.8.8', 'bgvictim', wrong())).code).toBe('NO_USER');
    expect((await one.failed('8.8.8.8', 'bgvictim', wrong())).code).toBe('NO_USER');
    expect((await two.failed('8.8.8.8', 'bgvictim', wrong())).code).toBe('AUTH_THROTTLED');
    expect(() => two.check('8.8.8.8', 'bgvictim')).toThrow(GatewayError);
    // Away: each counts on its own, and still refuses past the limit.
    isAway = true;
    const three = new AuthThrottle(LIMITS, shared);
    for (let i = 0; i < 3; i++) {
      expect((await three.failed('9.9.9.9', 'bgother', wrong())).code).toBe('NO_USER');
    }
    expect((await three.failed('9.9.9.9', 'bgother', wrong())).code).toBe('AUTH_THROTTLED');
  });

  it('forgets a pair once its right password comes', async () => {
    const throttle = new AuthThrottle(LIMITS);
    for (let i = 0; i < 3; i++) {
      await throttle.failed('8.8.4.4', 'bgcustomer', wrong());
    }
    throttle.succeeded('8.8.4.4', 'bgcustomer');
    expect(() => throttle.check('8.8.4.4', 'bgcustomer')).not.toThrow();
    expect((await throttle.failed('8.8.4.4', 'bgcustomer', wrong())).code).toBe('NO_USER');
  });
});

describe('an address that authenticates correctly', () => {
  it('is held to the pair’s limits only: its other wrong passwords are neither slowed nor refused', async () => {
    const throttle = new AuthThrottle({
      ...LIMITS,
      addressSlowAfter: 1,
      addressRefuseAfter: 2,
      delayStepMs: 5000,
    });
    throttle.succeeded('8.8.8.8', 'bgmine');
    const started = performance.now();
    for (let i = 0; i < 10; i++) {
      expect((await throttle.failed('8.8.8.8', `bgold${i}`, wrong())).code).toBe('NO_USER');
    }
    expect(performance.now() - started).toBeLessThan(1000);
    // Another address over the same count is slowed and refused.
    const other = new AuthThrottle({ ...LIMITS, addressSlowAfter: 100, addressRefuseAfter: 2 });
    await other.failed('9.9.9.9', 'bga', wrong());
    await other.failed('9.9.9.9', 'bgb', wrong());
    expect((await other.failed('9.9.9.9', 'bgc', wrong())).code).toBe('AUTH_THROTTLED');
  });
});
