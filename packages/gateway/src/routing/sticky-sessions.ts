import type { Targeting } from '@bytegate/contracts/targeting';
import type { Exit } from '../store.ts';
import type { ExitIndex } from './exit-index.ts';

interface Binding {
  exitId: string;
  expiresAt: number;
}

/**
 * Sticky sessions: a session key keeps its exit until its window ends or the exit goes away. Keys are
 * `planId|sessid` (or `planId|port:N` on sticky ports); expired bindings are swept every so often.
 */
export class StickySessions {
  private readonly bindings = new Map<string, Binding>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The exit bound to `key`, if still bound, still in the pool and still matching the targeting. */
  get(key: string, exits: ExitIndex, targeting: Targeting): Exit | undefined {
    const binding = this.bindings.get(key);
    if (!binding) {
      return undefined;
    }
    const exit = binding.expiresAt > this.now() ? exits.getMatching(binding.exitId, targeting) : undefined;
    if (!exit) {
      this.bindings.delete(key);
    }
    return exit;
  }

  /** What `key` is bound to while its window lasts: an exit's id, or a network's binding (supply/route.ts). */
  peek(key: string): string | undefined {
    const binding = this.bindings.get(key);
    return binding && binding.expiresAt > this.now() ? binding.exitId : undefined;
  }

  bind(key: string, exit: Exit, ttlMs: number): void {
    this.bindId(key, exit.id, ttlMs);
  }

  bindId(key: string, exitId: string, ttlMs: number): void {
    const now = this.now();
    this.bindings.set(key, { exitId, expiresAt: now + ttlMs });
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
