import type { Database } from '@bytegate/db';
import {
  addAgentUsage,
  addExitTraffic,
  addSourceHealth,
  addSourceUsage,
  addUsageStats,
  applyMeteredUsage,
  raiseSourceAlarm,
} from '@bytegate/db/queries';
import {
  type ExitTraffic,
  type PlanUsage,
  proxyUserIdOfKey,
  type SourceAlarm,
  type SourceDials,
} from '@bytegate/gateway';
import { credentialUsageOf, proxyUserEntries } from './credential-usage.ts';
import { agentUsageOf, sourceUsageOf } from './gateway-sources.ts';

// What the gateway writes to the database: the meter's drains (billing, in one transaction each), and
// the exits' and sources' health (not billing). DbGatewayStore calls these and keeps what it caches.

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** One drain of the meter, under its id, and when it is written (its hour and day). */
export interface MeteredDrain {
  flushId: string;
  usage: Map<string, PlanUsage>;
  now: Date;
}

/** Billed bytes per plan, and per proxy user (under its `pu:` key), in a drain: what the observer is told. */
export function billedBytesOf(usage: Map<string, PlanUsage>): Map<string, number> {
  return new Map([...usage].map(([key, totals]) => [key, totals.bytes + totals.extraBytes]));
}

/**
 * Writes one drain of the meter in one transaction, under its id: traffic used, hourly buckets, errors
 * and hosts, the Statistics' rows by credential, and each source's day. Answers the plans' used bytes
 * after it.
 */
export async function writeMeteredUsage(
  db: Database,
  { flushId, usage, now }: MeteredDrain,
  planIdOfProxyUser: (proxyUserId: string) => string | undefined,
): Promise<Map<string, number>> {
  const bucketStart = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
  const dayStart = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const planUsage = [...usage].filter(([key]) => proxyUserIdOfKey(key) === null);
  const entries = planUsage.map(([planId, totals]) => ({
    planId,
    billedBytes: totals.bytes + totals.extraBytes,
    bytes: totals.bytes,
    extraBytes: totals.extraBytes,
    requests: totals.requests,
    errors: totals.errors,
    errorsByCode: totals.errorsByCode,
    hostBytes: totals.hostBytes,
  }));
  const statistics = credentialUsageOf(usage, planIdOfProxyUser);
  return db.transaction(async (tx) => {
    const used = await applyMeteredUsage(tx, {
      flushId,
      bucketStart,
      dayStart,
      usage: entries,
      proxyUsers: proxyUserEntries(usage, now),
    });
    await addUsageStats(tx, { hour: bucketStart, day: dayStart, rows: statistics });
    await addSourceUsage(tx, { day: dayStart, deltas: sourceUsageOf(planUsage) });
    await addAgentUsage(tx, { day: dayStart, deltas: agentUsageOf(planUsage) });
    return used;
  });
}

/**
 * Adds one drain of the engine's exit health (connections opened, failed, connect time) to each exit's
 * hourly row. Not billing: one statement, and a drain that fails is put back by the caller.
 */
export async function writeExitHealth(db: Database, drained: Map<string, ExitTraffic>, now: Date) {
  await addExitTraffic(db, {
    bucketStart: new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS),
    deltas: [...drained].map(([exitId, traffic]) => ({
      exitId,
      connects: traffic.connects,
      failures: traffic.failures,
      connectMsTotal: traffic.connectMsTotal,
      lastError: traffic.lastError ?? null,
      lastErrorAt: traffic.lastErrorAt > 0 ? new Date(traffic.lastErrorAt) : null,
    })),
  });
}

/**
 * Adds one drain of the sources' dials to their days and raises their alarms (the latest per source).
 * Not billing: a drain that fails is put back by the caller.
 */
export async function writeSourceHealth(
  db: Database,
  drained: { dials: Map<string, SourceDials>; alarms: SourceAlarm[] },
  now: Date,
) {
  await addSourceHealth(db, {
    day: new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS),
    deltas: [...drained.dials].map(([sourceId, dials]) => ({ sourceId, ...dials })),
  });
  const latest = new Map(drained.alarms.map((alarm) => [alarm.sourceId, alarm]));
  for (const alarm of latest.values()) {
    await raiseSourceAlarm(db, { sourceId: alarm.sourceId, alarm: alarm.alarm, at: new Date(alarm.at) });
  }
}
