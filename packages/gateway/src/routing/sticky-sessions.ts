import type { Targeting } from '@bytegate/contracts/targeting';
import type { Exit } from '../store.ts';
import type { ExitIndex } from './exit-index.ts';

interface Binding {
  exitId: string;
  expiresAt: number;
  /** The country of the exit it was bound to, when known: a session that moves stays in it. */
  country: string | undefined;
}

/**
 * Sticky sessions: a session key keeps its exit until its window ends or the exit goes away. Keys are
 * `planId|sessid` (or `planId|port:N` on sticky ports); expired bindings are swept every so often.
 */
export class StickySessions {
  private readonly bindings = new Map<string, Binding>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The exit bound to `key`, if still bound, still in the pool and still matching the targeting. A
   * binding whose exit went away stays until it is bound anew, so that the session keeps its country.
   */
  get(key: string, exits: ExitIndex, targeting: Targeting): Exit | undefined {
    const binding = this.bindings.get(key);
    if (!binding) {
      return undefined;
    }
    if (binding.expiresAt <= this.now()) {
      this.bindings.delete(key);
      return undefined;
    }
    return exits.getMatching(binding.exitId, targeting);
  }

  /**
   * The targeting a session's next exit is picked with: its own, or, when it names no country, narrowed
   * to the country the session had (an agent that left, an exit that failed): a `sessid` never silently
   * switches country.
   */
  keepCountry(key: string, targeting: Targeting, country = this.countryOf(key)): Targeting {
    // A network's exit has no country of its own ('' when the connection named none).
    return country && !targeting.countries?.length && !targeting.excludeCountries?.includes(country)
      ? { ...targeting, countries: [country] }
      : targeting;
  }

  private countryOf(key: string): string | undefined {
    const binding = this.bindings.get(key);
    return binding && binding.expiresAt > this.now() ? binding.country : undefined;
  }

  /** What `key` is bound to while its window lasts: an exit's id, or a network's binding (supply/route.ts). */
  peek(key: string): string | undefined {
    const binding = this.bindings.get(key);
    return binding && binding.expiresAt > this.now() ? binding.exitId : undefined;
  }

  bind(key: string, exit: Exit, ttlMs: number): void {
    this.bindId(key, exit.id, ttlMs, exit.country);
  }

  bindId(key: string, exitId: string, ttlMs: number, country?: string): void {
    const now = this.now();
    this.bindings.set(key, { exitId, expiresAt: now + ttlMs, country });
    if (now - this.lastSweep > 60_000) {
      this.lastSweep = now;
      for (const [other, binding] of this.bindings) {
        if (binding.expiresAt <= now) {
          this.bindings.delete(other);
        }
      }
    }
  }

  get size(): number {
    return this.bindings.size;
  }
}
