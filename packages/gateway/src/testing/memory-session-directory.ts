import type { SessionDirectory } from '../shared-state.ts';

/**
 * The fleet's session directory in one process's memory: what the server's Redis-backed FleetSessions
 * does (a claim binds the proposal when nothing is bound, else answers the binding and its time left; a
 * rebind replaces it), for tests of several gateways in one process.
 */
export class MemorySessionDirectory implements SessionDirectory {
  readonly bindings = new Map<string, { exitId: string; expiresAt: number }>();
  /** Every claim and rebind, in order (what each gateway told the fleet). */
  readonly calls: Array<{ call: 'claim' | 'rebind'; key: string; exitId: string }> = [];

  constructor(private readonly now: () => number = Date.now) {}

  async claim(key: string, proposedExitId: string, ttlMs: number) {
    this.calls.push({ call: 'claim', key, exitId: proposedExitId });
    const bound = this.bindings.get(key);
    if (bound && bound.expiresAt > this.now()) {
      return { exitId: bound.exitId, ttlMs: bound.expiresAt - this.now() };
    }
    this.bindings.set(key, { exitId: proposedExitId, expiresAt: this.now() + ttlMs });
    return { exitId: proposedExitId, ttlMs };
  }

  rebind(key: string, exitId: string, ttlMs: number): void {
    this.calls.push({ call: 'rebind', key, exitId });
    this.bindings.set(key, { exitId, expiresAt: this.now() + ttlMs });
  }
}
