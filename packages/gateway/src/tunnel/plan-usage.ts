/** One drain's usage under one key (a plan, or a proxy user's share), and the arithmetic on it. */

export interface PlanUsage {
  /** Bytes that crossed client sockets, both directions, without the gateway's own error replies. */
  bytes: number;
  /** Extra bytes billed on top for target filters (2x: equal to the filtered traffic). */
  extraBytes: number;
  requests: number;
  errors: number;
  errorsByCode: Record<string, number>;
  /** Bytes per target host (name as the client asked for it, lower-case). */
  hostBytes: Record<string, number>;
  /** Requests per target host, and of them those refused or failed (the Statistics' hosts table). */
  hostRequests: Record<string, number>;
  hostErrors: Record<string, number>;
  /**
   * Bytes per source of supply that carried them (supply/source.ts), and of them the 2x extra billed:
   * on a plan's usage only (a proxy user's share is the same bytes again).
   */
  sourceBytes: Record<string, number>;
  sourceExtraBytes: Record<string, number>;
  /**
   * Bytes per exit agent that carried them (agents/), on a plan's usage only: what its partner earns
   * from (the bytes themselves, never the 2x extra billed on top).
   */
  agentBytes: Record<string, number>;
}

export const emptyUsage = (): PlanUsage => ({
  bytes: 0,
  extraBytes: 0,
  requests: 0,
  errors: 0,
  errorsByCode: {},
  hostBytes: {},
  hostRequests: {},
  hostErrors: {},
  sourceBytes: {},
  sourceExtraBytes: {},
  agentBytes: {},
});

/** Adds `amount` to a count of a record (a map of codes or hosts). */
export function addTo(record: Record<string, number>, key: string, amount: number): void {
  record[key] = (record[key] ?? 0) + amount;
}

/** Takes `amount` off a count of a record, dropping it at zero. */
export function takeFrom(record: Record<string, number>, key: string, amount: number): void {
  const left = (record[key] ?? 0) - amount;
  if (left === 0) {
    delete record[key];
  } else {
    record[key] = left;
  }
}

export const COUNTED_RECORDS = [
  'errorsByCode',
  'hostBytes',
  'hostRequests',
  'hostErrors',
  'sourceBytes',
  'sourceExtraBytes',
  'agentBytes',
] as const;

/** Adds per-plan usage into `into`, field by field (a meter's restore, a store's running totals). */
export function addUsage(into: Map<string, PlanUsage>, usage: Map<string, PlanUsage>): void {
  for (const [planId, totals] of usage) {
    let sum = into.get(planId);
    if (!sum) {
      sum = emptyUsage();
      into.set(planId, sum);
    }
    sum.bytes += totals.bytes;
    sum.extraBytes += totals.extraBytes;
    sum.requests += totals.requests;
    sum.errors += totals.errors;
    for (const name of COUNTED_RECORDS) {
      for (const [key, count] of Object.entries(totals[name])) {
        addTo(sum[name], key, count);
      }
    }
  }
}
