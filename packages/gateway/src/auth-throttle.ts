import { GatewayError } from './errors.ts';

/**
 * Failed proxy logins, slowed and then refused (audit issue 28, item 10: one address sent 1,100 wrong
 * passwords a second). Failures count in windows of `windowMs` from a key's first failure, under three
 * keys: the (client address, login) pair, the client address, and the login. What each does:
 *
 * - the pair: after `pairSlowAfter` failures each further wrong password is answered only after a delay
 *   (growing to `maxDelayMs`); after `pairRefuseAfter` the pair is refused without its password being
 *   checked, until the window ends (AUTH_THROTTLED, `Retry-After`). A right password clears the pair, so
 *   only an address that itself kept sending wrong passwords for that login is ever refused for it;
 * - the address: its failures for any logins (unknown ones included) slow its wrong passwords, and past
 *   `addressRefuseAfter` refuse them; a right password from it still goes through at once (it is never
 *   checked against this count), so a NAT shared with a guesser never locks out a customer;
 * - the login: failures from everywhere slow its wrong passwords (never a right one);
 * - an address that authenticated correctly in the window is held to the pair's limits only.
 *
 * A right password is never delayed or refused by the address or the login; a guesser gets at most
 * `pairRefuseAfter` tries per login and address a window, each slowed past `pairSlowAfter`, and with the
 * per-address cap on connections still authenticating (PendingConnections) that bounds its rate.
 * Counts live in `AuthFailureCounts`: this process's (an LRU of fixed size) or the fleet's (Redis).
 */
export interface AuthThrottleLimits {
  windowMs: number;
  /** Failures of a pair, an address, a login before its wrong passwords are slowed. */
  pairSlowAfter: number;
  addressSlowAfter: number;
  loginSlowAfter: number;
  /** Each failure past a slowAfter waits this much more, up to maxDelayMs. */
  delayStepMs: number;
  maxDelayMs: number;
  pairRefuseAfter: number;
  addressRefuseAfter: number;
}

export const DEFAULT_AUTH_THROTTLE: AuthThrottleLimits = {
  windowMs: 10 * 60_000,
  pairSlowAfter: 5,
  addressSlowAfter: 20,
  loginSlowAfter: 20,
  delayStepMs: 250,
  maxDelayMs: 2000,
  pairRefuseAfter: 20,
  addressRefuseAfter: 100,
};

/** A key's failures in its window, and the milliseconds left of it. */
export interface FailureCount {
  failures: number;
  leftMs: number;
}

/** Where failures are counted: this process's memory, or shared by the fleet. */
export interface AuthFailureCounts {
  /** Adds one failure under each key (a window opens at a key's first); answers each key's count. */
  add(keys: readonly string[], windowMs: number): FailureCount[] | Promise<FailureCount[]>;
  /** Forgets a key (a right password for the pair). */
  clear(key: string): void;
}

/** Failure counts in this process: at most `maxKeys`, the least recently failed going first. */
export class LocalAuthFailures implements AuthFailureCounts {
  private readonly counts = new Map<string, { failures: number; until: number }>();

  constructor(
    readonly maxKeys = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.counts.size;
  }

  add(keys: readonly string[], windowMs: number): FailureCount[] {
    const now = this.now();
    return keys.map((key) => {
      const known = this.counts.get(key);
      const entry = known && known.until > now ? known : { failures: 0, until: now + windowMs };
      entry.failures += 1;
      this.set(key, entry);
      return { failures: entry.failures, leftMs: entry.until - now };
    });
  }

  /** Takes a count as the fleet said it (the mirror a shared count keeps here for `peek`). */
  note(key: string, count: FailureCount): void {
    this.set(key, { failures: count.failures, until: this.now() + count.leftMs });
  }

  /** A key's count now, without adding to it. */
  peek(key: string): FailureCount | undefined {
    const known = this.counts.get(key);
    const now = this.now();
    if (!known || known.until <= now) {
      return undefined;
    }
    return { failures: known.failures, leftMs: known.until - now };
  }

  has(key: string): boolean {
    return this.counts.has(key);
  }

  clear(key: string): void {
    this.counts.delete(key);
  }

  private set(key: string, entry: { failures: number; until: number }): void {
    this.counts.delete(key);
    this.counts.set(key, entry);
    while (this.counts.size > this.maxKeys) {
      const oldest = this.counts.keys().next();
      if (oldest.done) {
        break;
      }
      this.counts.delete(oldest.value);
    }
  }
}

const THROTTLED_MESSAGE = 'Too many wrong proxy passwords from your address: wait before trying again';

export class AuthThrottle {
  /** What this process knows of each key: its own counts, or the fleet's as they last came back. */
  private readonly known: LocalAuthFailures;

  private readonly limits: AuthThrottleLimits;

  constructor(
    limits: Partial<AuthThrottleLimits> = {},
    private readonly shared?: AuthFailureCounts,
    maxKeys = 100_000,
  ) {
    this.limits = { ...DEFAULT_AUTH_THROTTLE, ...limits };
    this.known = new LocalAuthFailures(maxKeys);
  }

  /** Keys in memory now (bounded by maxKeys). */
  get size(): number {
    return this.known.size;
  }

  /**
   * Before a password is checked: throws AUTH_THROTTLED when this address has sent `pairRefuseAfter`
   * wrong passwords for this login in the window (no check: no guess gets through meanwhile).
   */
  check(address: string | undefined, login: string): void {
    if (address === undefined) {
      return;
    }
    const pair = this.known.peek(pairKey(address, login));
    if (pair && pair.failures >= this.limits.pairRefuseAfter) {
      throw throttled(pair.leftMs);
    }
  }

  /**
   * A right password: the pair's failures are forgotten, and for a window the address is one that
   * authenticates correctly: its wrong passwords are no longer slowed or refused by the address's or
   * the login's counts (a customer's old password still in use somewhere), only by the pair's.
   */
  succeeded(address: string | undefined, login: string): void {
    if (address === undefined) {
      return;
    }
    const good = `g:${address}`;
    if (!this.known.peek(good)) {
      this.known.note(good, { failures: 0, leftMs: this.limits.windowMs });
    }
    const key = pairKey(address, login);
    if (this.known.has(key)) {
      this.known.clear(key);
      this.shared?.clear(key);
    }
  }

  /**
   * A wrong password (or unknown login): counts it, then answers the refusal to give once its delay has
   * passed: `wrong` itself, or AUTH_THROTTLED past a refusal threshold.
   */
  async failed(address: string | undefined, login: string, wrong: GatewayError): Promise<GatewayError> {
    if (address === undefined) {
      return wrong;
    }
    const keys = [pairKey(address, login), `a:${address}`, `l:${login}`];
    let counts: FailureCount[];
    try {
      counts = this.shared ? await this.shared.add(keys, this.limits.windowMs) : [];
    } catch {
      counts = [];
    }
    if (counts.length === keys.length) {
      keys.forEach((key, i) => {
        const count = counts[i];
        if (count) {
          this.known.note(key, count);
        }
      });
    } else {
      counts = this.known.add(keys, this.limits.windowMs);
    }
    const [pair, byAddress, byLogin] = counts as [FailureCount, FailureCount, FailureCount];
    if (pair.failures > this.limits.pairRefuseAfter) {
      return throttled(pair.leftMs);
    }
    const isGoodAddress = this.known.peek(`g:${address}`) !== undefined;
    if (!isGoodAddress && byAddress.failures > this.limits.addressRefuseAfter) {
      return throttled(byAddress.leftMs);
    }
    const { pairSlowAfter, addressSlowAfter, loginSlowAfter } = this.limits;
    const delayMs = Math.max(
      this.delayFor(pair.failures, pairSlowAfter),
      isGoodAddress ? 0 : this.delayFor(byAddress.failures, addressSlowAfter),
      isGoodAddress ? 0 : this.delayFor(byLogin.failures, loginSlowAfter),
    );
    if (delayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
    return wrong;
  }

  /** No delay up to `slowAfter` failures, then `delayStepMs` more per failure, up to `maxDelayMs`. */
  delayFor(failures: number, slowAfter: number): number {
    const over = failures - slowAfter;
    return over <= 0 ? 0 : Math.min(this.limits.maxDelayMs, over * this.limits.delayStepMs);
  }
}

function pairKey(address: string, login: string): string {
  return `p:${address}|${login}`;
}

function throttled(leftMs: number): GatewayError {
  const error = new GatewayError('AUTH_THROTTLED', THROTTLED_MESSAGE);
  error.retryAfterSeconds = Math.max(1, Math.ceil(leftMs / 1000));
  return error;
}
