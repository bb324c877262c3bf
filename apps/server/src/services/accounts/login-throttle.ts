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
 * Counts live in this process's memory (issue 16 moves them to Redis for many processes).
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

export class LoginThrottle {
  private readonly accountAndAddress: FailureCounter;
  private readonly address: FailureCounter;
  private readonly accountUntrusted: FailureCounter;
  private readonly trustedDevice: FailureCounter;

  constructor(rules: LoginThrottleRules, now: () => number = Date.now) {
    this.accountAndAddress = new FailureCounter(rules.perAccountAndAddress, now);
    this.address = new FailureCounter(rules.perAddress, now);
    this.accountUntrusted = new FailureCounter(rules.perAccountUntrusted, now);
    this.trustedDevice = new FailureCounter(rules.perTrustedDevice, now);
  }

  /** Milliseconds this attempt must wait before its password is even checked; 0 when it may go on. */
  waitMs(attempt: LoginAttempt): number {
    if (attempt.trustedDevice) {
      return this.trustedDevice.lockedForMs(attempt.trustedDevice);
    }
    return Math.max(
      this.accountAndAddress.lockedForMs(`${attempt.email}|${attempt.address}`),
      this.address.lockedForMs(attempt.address),
      this.accountUntrusted.lockedForMs(attempt.email),
    );
  }

  recordFailure(attempt: LoginAttempt): void {
    if (attempt.trustedDevice) {
      this.trustedDevice.fail(attempt.trustedDevice);
      return;
    }
    this.accountAndAddress.fail(`${attempt.email}|${attempt.address}`);
    this.address.fail(attempt.address);
    this.accountUntrusted.fail(attempt.email);
  }

  recordSuccess(attempt: LoginAttempt): void {
    this.accountAndAddress.clear(`${attempt.email}|${attempt.address}`);
    if (attempt.trustedDevice) {
      this.trustedDevice.clear(attempt.trustedDevice);
    }
  }
}
