import type { AuthFailureCounts } from './auth-throttle.ts';
import type { TrafficAllowance } from './tunnel/traffic-allowance.ts';

/**
 * What one gateway process shares with the others serving the same customers (docs/processes.md "Processes and
 * roles"): thread slots, traffic allowances and sticky sessions. Without it the engine keeps them in its
 * own memory (ThreadLimits, LocalTrafficAllowance, StickySessions); the server backs them with Redis.
 * The hot path stays synchronous except where the fleet must agree before a connection goes on: taking a
 * thread slot and, for a session, learning its exit (one round trip each, pipelined, at admission).
 */

/** Gives a thread slot back, once, however often it is called. */
export type ReleaseSlot = () => void;

/** Concurrent connections per plan. */
export interface ThreadSlots {
  /** Takes a slot; a release function, or null when the plan is at its limit (fleet-wide when shared). */
  acquire(planId: string, limit: number): ReleaseSlot | null | Promise<ReleaseSlot | null>;
  /** Slots this process holds for a plan. */
  count(planId: string): number;
  /** Gives back every slot still held, when the process stops; answers how many were held. */
  releaseAll(): number;
  /** Slots this process holds now, per plan (a live view: read it, do not keep it). */
  perPlan(): ReadonlyMap<string, number>;
}

/** Sticky sessions agreed on by every gateway: which exit a session key is bound to. */
export interface SessionDirectory {
  /**
   * The exit `key` is bound to fleet-wide with the time left of its window, binding `proposedExitId` for
   * `ttlMs` when none is (null when the directory cannot answer: the engine goes on with its own view).
   */
  claim(
    key: string,
    proposedExitId: string,
    ttlMs: number,
  ): Promise<{ exitId: string; ttlMs: number } | null>;
  /** Moves a session to another exit (its first one failed), for every gateway. */
  rebind(key: string, exitId: string, ttlMs: number): void;
}

/** The shared implementations a gateway runs with; each one left out stays in-process. */
export interface SharedGatewayState {
  threads?: ThreadSlots;
  /** Built with the meter's pending bytes per plan (billed, not yet stored). */
  allowance?: (pendingBytes: (planId: string) => number) => TrafficAllowance;
  sessions?: SessionDirectory;
  /** Failed proxy logins counted fleet-wide (auth-throttle.ts); answers this process's when away. */
  authFailures?: AuthFailureCounts;
}
