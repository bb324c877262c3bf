// When the health job takes an exit out of rotation and when it puts one back (docs/gateway.md, "Exit health").
// Pure decisions, apart from the probing and the writes (jobs/probe-exits.ts), so they are tested alone.

/** Probes in a row that must fail before an exit leaves rotation. */
export const PROBE_FAILURES_TO_TAKE_OUT = 3;
/** Real traffic: the share of connections that failed to open, over the last hour, that takes an exit out… */
export const TRAFFIC_FAILURE_RATE = 0.5;
/** …once it tried at least this many in that hour (fewer say too little). */
export const TRAFFIC_MIN_ATTEMPTS = 20;

export type RotationVerdict = { action: 'out' | 'back'; reason: string } | null;

const percent = (rate: number) => `${Math.round(rate * 100)}%`;

/**
 * After a probe: an exit in rotation leaves after PROBE_FAILURES_TO_TAKE_OUT failures in a row; an exit
 * out of rotation (whatever took it out) comes back with the first success.
 */
export function probeVerdict(
  exit: { isInRotation: boolean },
  probe: { isOk: boolean; consecutiveFailures: number; error: string | null },
): RotationVerdict {
  if (probe.isOk) {
    return exit.isInRotation ? null : { action: 'back', reason: 'A probe through the exit succeeded' };
  }
  if (exit.isInRotation && probe.consecutiveFailures >= PROBE_FAILURES_TO_TAKE_OUT) {
    return {
      action: 'out',
      reason: `${probe.consecutiveFailures} probes in a row failed: ${probe.error ?? 'no answer'}`,
    };
  }
  return null;
}

export interface ExitTrafficSample {
  exitId: string;
  pool: string;
  isInRotation: boolean;
  /** Connections opened through the exit in the last hour, and those that failed to open. */
  connects: number;
  failures: number;
}

/**
 * From real traffic: an exit in rotation leaves when at least TRAFFIC_FAILURE_RATE of its last hour's
 * connections (TRAFFIC_MIN_ATTEMPTS or more) failed, while the rest of its pool (as many attempts) failed
 * at most half as often. A target that refuses everyone fails every exit alike; that says nothing about
 * the exits, and must not empty a pool. Exits put back in the last hour (`recentlyRestored`) are judged
 * by probes only until their old failures have aged out.
 */
export function trafficVerdicts(
  samples: readonly ExitTrafficSample[],
  recentlyRestored: ReadonlySet<string>,
): Array<{ exitId: string; reason: string }> {
  const pools = new Map<string, { attempts: number; failures: number }>();
  for (const sample of samples) {
    if (sample.isInRotation) {
      const pool = pools.get(sample.pool) ?? { attempts: 0, failures: 0 };
      pool.attempts += sample.connects + sample.failures;
      pool.failures += sample.failures;
      pools.set(sample.pool, pool);
    }
  }
  const verdicts: Array<{ exitId: string; reason: string }> = [];
  for (const sample of samples) {
    const attempts = sample.connects + sample.failures;
    if (!sample.isInRotation || recentlyRestored.has(sample.exitId) || attempts < TRAFFIC_MIN_ATTEMPTS) {
      continue;
    }
    const rate = sample.failures / attempts;
    const pool = pools.get(sample.pool) ?? { attempts: 0, failures: 0 };
    const restAttempts = pool.attempts - attempts;
    const restRate = restAttempts > 0 ? (pool.failures - sample.failures) / restAttempts : 1;
    if (rate >= TRAFFIC_FAILURE_RATE && restAttempts >= TRAFFIC_MIN_ATTEMPTS && restRate <= rate / 2) {
      verdicts.push({
        exitId: sample.exitId,
        reason: `${percent(rate)} of ${attempts} connections failed in the last hour (the rest of the pool: ${percent(restRate)})`,
      });
    }
  }
  return verdicts;
}
