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
 * While the per-account lock holds, its owner may ask for a one-time sign-in link by mail (see
 * sign-in-links/), which tells them how many failures came from how many addresses.
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
  /** The distinct sources (client addresses) the failures came from, when told. */
  sources: Set<string>;
}

/** A key's failures in its window so far, and from how many distinct sources. */
export interface FailureTally {
  failures: number;
  sources: number;
}

/** Sources remembered per window at most: enough to tell, bounded whatever a flood sends. */
const MAX_SOURCES = 10_000;

/** Where failures are counted: this process's memory, or a store shared by many processes. */
export interface FailureCounts {
  /** Milliseconds until the key may try again; 0 when it may now. */
  lockedForMs(key: string): Promise<number>;
  /** Counts a failure; `source` (a client address) is remembered to tell how many sources there were. */
  fail(key: string, source?: string): Promise<void>;
  clear(key: string): Promise<void>;
  /** The failures of the key's window so far (zero when it has none). */
  tally(key: string): Promise<FailureTally>;
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

  fail(key: string, source?: string): void {
    const window = this.live(key) ?? {
      failures: 0,
      endsAt: this.now() + this.rule.windowMs,
      sources: new Set<string>(),
    };
    window.failures += 1;
    if (source !== undefined && window.sources.size < MAX_SOURCES) {
      window.sources.add(source);
    }
    this.windows.set(key, window);
    if (this.windows.size > 100_000) {
      this.sweep();
    }
  }

  clear(key: string): void {
    this.windows.delete(key);
  }

  tally(key: string): FailureTally {
    const window = this.live(key);
    return { failures: window?.failures ?? 0, sources: window?.sources.size ?? 0 };
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
      fail: async (key, source) => counter.fail(key, source),
      clear: async (key) => counter.clear(key),
      tally: async (key) => counter.tally(key),
    };
  };

/** The account's own lock (many addresses guessing it): how long it lasts and what led to it. */
export interface AccountLock extends FailureTally {
  lockedForMs: number;
}

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

  /**
   * The lock that holds every browser the account does not know (many addresses guessing it), or null
   * while there is none. Its owner has a way in that no guesser has: a one-time link to the mailbox.
   */
  async accountLock(email: string): Promise<AccountLock | null> {
    const lockedForMs = await this.accountUntrusted.lockedForMs(email);
    return lockedForMs > 0 ? { lockedForMs, ...(await this.accountUntrusted.tally(email)) } : null;
  }

  async recordFailure(attempt: LoginAttempt): Promise<void> {
    if (attempt.trustedDevice) {
      await this.trustedDevice.fail(attempt.trustedDevice);
      return;
    }
    await Promise.all([
      this.accountAndAddress.fail(`${attempt.email}|${attempt.address}`),
      this.address.fail(attempt.address),
      this.accountUntrusted.fail(attempt.email, attempt.address),
    ]);
  }

  async recordSuccess(attempt: LoginAttempt): Promise<void> {
    await this.accountAndAddress.clear(`${attempt.email}|${attempt.address}`);
    if (attempt.trustedDevice) {
      await this.trustedDevice.clear(attempt.trustedDevice);
    }
  }
}
