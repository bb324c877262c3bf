/**
 * Failed sign-ins, counted so that guessing is slow and a stranger cannot lock the owner out.
 *
 * Only failures count (a wrong password after a passed bot check); a success clears the failures of
 * that address for that account. Three counters refuse further tries for the rest of their window:
 *
 * - per account and client address: one address guessing one account (10 in 15 minutes);
 * - per client address: one address trying many accounts, as in credential stuffing (50 in 15 minutes);
 * - per account from browsers it has never signed in from: many addresses guessing one account (100 in
 *   an hour). A browser that signed in to the account before (its device cookie) is not held by this
 *   one, only by its own count (10 in 15 minutes), so failures made elsewhere never lock it out. This
 *   is OWASP's "device cookies" design.
 *
 * Counts live in this process's memory, or with REDIS_URL in Redis, shared by every API process (see
 * redis/redis-failure-counter.ts, which keeps counting here while Redis is away).
 */

export interface FailureRule {
  max: number;
  windowMs: number;
}

export interface LoginThrottleRules {
  perAccountAndAddress: FailureRule;
  perAddress: FailureRule;
  perAccountUntrusted: FailureRule;
  perTrustedDevice: FailureRule;
}

interface Window {
  failures: number;
  endsAt: number;
}

/** Where failures are counted: this process's memory, or a store shared by many processes. */
export interface FailureCounts {
  /** Milliseconds until the key may try again; 0 when it may now. */
  lockedForMs(key: string): Promise<number>;
  fail(key: string): Promise<void>;
  clear(key: string): Promise<void>;
}

/** Failures per key in fixed windows that start at a key's first failure. */
export class FailureCounter {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly rule: FailureRule,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until the key may try again; 0 when it may now. */
  lockedForMs(key: string): number {
    const window = this.live(key);
    return window && window.failures >= this.rule.max ? window.endsAt - this.now() : 0;
  }

  fail(key: string): void {
    const window = this.live(key) ?? { failures: 0, endsAt: this.now() + this.rule.windowMs };
    window.failures += 1;
    this.windows.set(key, window);
    if (this.windows.size > 100_000) {
      this.sweep();
    }
  }

  clear(key: string): void {
    this.windows.delete(key);
  }

  private live(key: string): Window | undefined {
    const window = this.windows.get(key);
    if (window && window.endsAt <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  /** Drops ended windows, so a flood of one-off keys cannot grow the map without end. */
  private sweep(): void {
    const now = this.now();
    for (const [key, window] of this.windows) {
      if (window.endsAt <= now) {
        this.windows.delete(key);
      }
    }
  }
}

export interface LoginAttempt {
  /** Lower-cased, as the request schema leaves it. */
  email: string;
  address: string;
  /** The device cookie's hash when the browser has signed in to this very account before. */
  trustedDevice: string | null;
}

/** Makes the counter of one rule; `name` tells the four apart in a shared store. */
export type FailureCountsFactory = (rule: FailureRule, name: string) => FailureCounts;

/** The in-memory counter behind the async interface (one process); `now` is the clock (tests). */
export const memoryFailureCounts =
  (now: () => number = Date.now): FailureCountsFactory =>
  (rule) => {
    const counter = new FailureCounter(rule, now);
    return {
      lockedForMs: async (key) => counter.lockedForMs(key),
      fail: async (key) => counter.fail(key),
      clear: async (key) => counter.clear(key),
    };
  };

export class LoginThrottle {
  private readonly accountAndAddress: FailureCounts;
  private readonly address: FailureCounts;
  private readonly accountUntrusted: FailureCounts;
  private readonly trustedDevice: FailureCounts;

  constructor(rules: LoginThrottleRules, counts: FailureCountsFactory = memoryFailureCounts()) {
    this.accountAndAddress = counts(rules.perAccountAndAddress, 'account-address');
    this.address = counts(rules.perAddress, 'address');
    this.accountUntrusted = counts(rules.perAccountUntrusted, 'account');
    this.trustedDevice = counts(rules.perTrustedDevice, 'device');
  }

  /** Milliseconds this attempt must wait before its password is even checked; 0 when it may go on. */
  async waitMs(attempt: LoginAttempt): Promise<number> {
    if (attempt.trustedDevice) {
      return this.trustedDevice.lockedForMs(attempt.trustedDevice);
    }
    const waits = await Promise.all([
      this.accountAndAddress.lockedForMs(`${attempt.email}|${attempt.address}`),
      this.address.lockedForMs(attempt.address),
      this.accountUntrusted.lockedForMs(attempt.email),
    ]);
    return Math.max(...waits);
  }

  async recordFailure(attempt: LoginAttempt): Promise<void> {
    if (attempt.trustedDevice) {
      await this.trustedDevice.fail(attempt.trustedDevice);
      return;
    }
    await Promise.all([
      this.accountAndAddress.fail(`${attempt.email}|${attempt.address}`),
      this.address.fail(attempt.address),
      this.accountUntrusted.fail(attempt.email),
    ]);
  }

  async recordSuccess(attempt: LoginAttempt): Promise<void> {
    await this.accountAndAddress.clear(`${attempt.email}|${attempt.address}`);
    if (attempt.trustedDevice) {
      await this.trustedDevice.clear(attempt.trustedDevice);
    }
  }
}
