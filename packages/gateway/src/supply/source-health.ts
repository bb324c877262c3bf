import { PROBE_FAILURES_TO_HOLD_DOWN } from '@bytegate/contracts/admin-supply';
import type { Source } from './source.ts';

/** How many minutes of dials a source's health looks back over (one bucket a minute). */
export const HEALTH_WINDOW_MINUTES = 5;

/** Probes failed in a row after which a network goes last in the routing (one rule with the console's). */
export { PROBE_FAILURES_TO_HOLD_DOWN };

/**
 * Whether the probes hold a source down: its last PROBE_FAILURES_TO_HOLD_DOWN probes (or more) failed,
 * and no real connection through it opened since the first of them. Real traffic and probes each clear
 * it: a probe that works resets the run (the job writes failuresInRow 0), and a customer's connection
 * that opens through the source after the run began outweighs the probes (a vendor may refuse the probe's
 * target alone, and real traffic is what customers get). A held-down source is not left out: it is
 * tried after every other (route.ts, orderSources), so a connection no other source can carry still may go there,
 * and one that opens clears the hold.
 */
export function isHeldDownByProbes(probe: Source['probe'], lastOpenedAtMs: number | undefined): boolean {
  if (!probe || probe.failuresInRow < PROBE_FAILURES_TO_HOLD_DOWN || probe.failingSinceMs === null) {
    return false;
  }
  return lastOpenedAtMs === undefined || lastOpenedAtMs < probe.failingSinceMs;
}
const MINUTE_MS = 60_000;

interface Bucket {
  minute: number;
  opened: number;
  failed: number;
  connectMs: number;
}

/** Dials through a source since the last drain: the store adds them to the source's day. */
export interface SourceDials {
  connects: number;
  failures: number;
  connectMsTotal: number;
}

/** A refusal staff must handle, in our words (never the vendor's page to a customer). */
export interface SourceAlarm {
  sourceId: string;
  alarm: string;
  at: number;
}

/**
 * Each source's health from its real dials, per source and per country (a network can be strong in one
 * country and empty in another): success rate and connect time over the last few minutes, which the
 * routing weighs sources by. Also keeps the dials and alarms since the last drain for the store.
 */
export class SourceHealth {
  private readonly windows = new Map<string, Bucket[]>();
  private dials = new Map<string, SourceDials>();
  private alarms: SourceAlarm[] = [];
  /** When a real dial through each source last opened (any country), for the probes' hold. */
  private readonly lastOpenedAt = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  opened(sourceId: string, country: string, connectMs: number): void {
    this.count(sourceId, country, true, connectMs);
  }

  failed(sourceId: string, country: string): void {
    this.count(sourceId, country, false, 0);
  }

  /** Records a refusal staff must see (the latest per source wins when the store writes them). */
  alarm(sourceId: string, alarm: string): void {
    if (this.alarms.length < 1000) {
      this.alarms.push({ sourceId, alarm, at: this.now() });
    }
  }

  /** Whether the source probe job holds the source down (isHeldDownByProbes): it goes last in the routing. */
  isHeldDown(source: Pick<Source, 'id' | 'probe'>): boolean {
    return source.probe !== undefined && isHeldDownByProbes(source.probe, this.lastOpenedAt.get(source.id));
  }

  /**
   * How well a source has answered dials for this country lately, from 0 to 1: its success rate, with
   * one success and one failure assumed so that an untried source starts at one half and a single
   * failure does not shut it out.
   */
  score(sourceId: string, country: string): number {
    const minute = Math.floor(this.now() / MINUTE_MS);
    let opened = 0;
    let failed = 0;
    for (const bucket of this.windows.get(`${sourceId}|${country}`) ?? []) {
      if (minute - bucket.minute < HEALTH_WINDOW_MINUTES) {
        opened += bucket.opened;
        failed += bucket.failed;
      }
    }
    return (opened + 1) / (opened + failed + 2);
  }

  /** The mean connect time of the source's recent successful dials for a country, or undefined. */
  connectMs(sourceId: string, country: string): number | undefined {
    const minute = Math.floor(this.now() / MINUTE_MS);
    let opened = 0;
    let total = 0;
    for (const bucket of this.windows.get(`${sourceId}|${country}`) ?? []) {
      if (minute - bucket.minute < HEALTH_WINDOW_MINUTES) {
        opened += bucket.opened;
        total += bucket.connectMs;
      }
    }
    return opened > 0 ? total / opened : undefined;
  }

  /** Takes the dials and alarms since the last drain. */
  drain(): { dials: Map<string, SourceDials>; alarms: SourceAlarm[] } {
    const drained = { dials: this.dials, alarms: this.alarms };
    this.dials = new Map();
    this.alarms = [];
    return drained;
  }

  /** Puts back a drain whose write failed, so no dial goes uncounted. */
  restore(drained: { dials: Map<string, SourceDials>; alarms: SourceAlarm[] }): void {
    for (const [sourceId, dials] of drained.dials) {
      const into = this.dialsOf(sourceId);
      into.connects += dials.connects;
      into.failures += dials.failures;
      into.connectMsTotal += dials.connectMsTotal;
    }
    this.alarms.unshift(...drained.alarms.slice(0, 1000 - this.alarms.length));
  }

  private dialsOf(sourceId: string): SourceDials {
    let dials = this.dials.get(sourceId);
    if (!dials) {
      dials = { connects: 0, failures: 0, connectMsTotal: 0 };
      this.dials.set(sourceId, dials);
    }
    return dials;
  }

  private count(sourceId: string, country: string, isOpened: boolean, connectMs: number): void {
    const dials = this.dialsOf(sourceId);
    const minute = Math.floor(this.now() / MINUTE_MS);
    const key = `${sourceId}|${country}`;
    let window = this.windows.get(key);
    if (!window) {
      window = [];
      this.windows.set(key, window);
    }
    let bucket = window[window.length - 1];
    if (bucket?.minute !== minute) {
      bucket = { minute, opened: 0, failed: 0, connectMs: 0 };
      window.push(bucket);
      if (window.length > HEALTH_WINDOW_MINUTES) {
        window.shift();
      }
    }
    if (isOpened) {
      this.lastOpenedAt.set(sourceId, this.now());
      bucket.opened += 1;
      bucket.connectMs += connectMs;
      dials.connects += 1;
      dials.connectMsTotal += connectMs;
    } else {
      bucket.failed += 1;
      dials.failures += 1;
    }
  }
}
