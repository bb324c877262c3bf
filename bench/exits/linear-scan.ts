// The pick as it was before the exit index (commit 79f1db1, routing/select-exit.ts and
// sticky-sessions.ts): a filter of the whole pool on every connection, a session's exit found among the
// matching ones. Kept here as the bench's baseline, run in the same process on the same exits.
import type { Targeting } from '@bytegate/contracts/targeting';
import type { Exit } from '@bytegate/gateway';
import { exitMatches } from '../../packages/gateway/src/routing/exit-matches.ts';

export function scanPickExit(exits: readonly Exit[], targeting: Targeting, avoid?: string): Exit | undefined {
  const matching = exits.filter((exit) => exitMatches(exit, targeting));
  if (matching.length === 0) {
    return undefined;
  }
  const choices = matching.length > 1 && avoid ? matching.filter((exit) => exit.id !== avoid) : matching;
  return choices[Math.floor(Math.random() * choices.length)] ?? (matching[0] as Exit);
}

/** The sticky pick of then: the matching exits filtered, the bound one found among them, else a pick. */
export function scanChooseExit(
  exits: readonly Exit[],
  targeting: Targeting,
  key: string,
  bindings: Map<string, { exitId: string; expiresAt: number }>,
  ttlMs: number,
): Exit | undefined {
  const matching = exits.filter((exit) => exitMatches(exit, targeting));
  const binding = bindings.get(key);
  const bound =
    binding && binding.expiresAt > Date.now()
      ? matching.find((candidate) => candidate.id === binding.exitId)
      : undefined;
  if (bound) {
    return bound;
  }
  const exit = scanPickExit(matching, targeting);
  if (exit) {
    bindings.set(key, { exitId: exit.id, expiresAt: Date.now() + ttlMs });
  }
  return exit;
}
