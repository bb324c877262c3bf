import type { AgentSettings, TunnelRefusal } from './protocol.ts';

/** A window of hours in local time: from `from`:00 up to `to`:00, across midnight when to <= from. */
export interface HoursWindow {
  from: number;
  to: number;
}

/**
 * `8-23` (08:00 to 23:00), `22-6` (22:00 to 06:00, across midnight), `0-24` (all day). Null when it is
 * not a window: hours outside 0..24, or an empty one (`5-5`).
 */
export function parseHours(text: string): HoursWindow | null {
  const match = /^\s*(\d{1,2})\s*-\s*(\d{1,2})\s*$/.exec(text);
  if (!match) {
    return null;
  }
  const from = Number(match[1]);
  const to = Number(match[2]);
  if (from > 23 || to > 24 || from === to) {
    return null;
  }
  return { from, to };
}

export function isWithinHours(window: HoursWindow, hour: number): boolean {
  return window.from < window.to
    ? hour >= window.from && hour < window.to
    : hour >= window.from || hour < window.to;
}

/** What is wrong with a partner's settings, field by field (empty when nothing is). */
export function settingsProblems(settings: AgentSettings): string[] {
  const problems: string[] = [];
  const { maxTunnels, gbPerDay, hours } = settings;
  if (maxTunnels != null && (!Number.isInteger(maxTunnels) || maxTunnels < 1 || maxTunnels > 100_000)) {
    problems.push('The most tunnels at once must be a whole number from 1 to 100000');
  }
  if (gbPerDay != null && (!Number.isFinite(gbPerDay) || gbPerDay <= 0 || gbPerDay > 100_000)) {
    problems.push('GB per day must be a number above 0 and at most 100000');
  }
  if (hours != null && parseHours(hours) === null) {
    problems.push('Hours must be a window such as 8-23, or 22-6 across midnight');
  }
  return problems;
}

const stricterMin = (a: number | null | undefined, b: number | null | undefined) =>
  a == null ? (b ?? null) : b == null ? a : Math.min(a, b);

/**
 * The limits that apply: the stricter of the agent's own configuration and the dashboard's. Hours set
 * in both: the dashboard's, as the later word of the same partner (two windows need not overlap).
 */
export function stricterSettings(own: AgentSettings, dashboard: AgentSettings): AgentSettings {
  return {
    maxTunnels: stricterMin(own.maxTunnels, dashboard.maxTunnels),
    gbPerDay: stricterMin(own.gbPerDay, dashboard.gbPerDay),
    hours: dashboard.hours ?? own.hours ?? null,
    plainHttp: own.plainHttp !== false && dashboard.plainHttp !== false,
  };
}

/** The local calendar day of a time, as `YYYY-MM-DD`. */
function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The partner's limits as they stand now: tunnels open, bytes carried today (both directions), and
 * whether a new tunnel may open. The day is the agent's local day; its count starts again at midnight.
 */
export class PartnerLimits {
  private settings: AgentSettings;
  private hours: HoursWindow | null;
  private day: string;
  private bytesToday = 0;
  tunnels = 0;

  constructor(
    settings: AgentSettings,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.settings = settings;
    this.hours = settings.hours ? parseHours(settings.hours) : null;
    this.day = localDay(this.now());
  }

  get current(): AgentSettings {
    return this.settings;
  }

  update(settings: AgentSettings): void {
    this.settings = settings;
    this.hours = settings.hours ? parseHours(settings.hours) : null;
  }

  /** Bytes carried (counted as tunnels report them). */
  count(bytes: number): void {
    this.rollDay();
    this.bytesToday += bytes;
  }

  get carriedToday(): number {
    this.rollDay();
    return this.bytesToday;
  }

  /** Why a new tunnel may not open now (null: it may); `carries` is what the hub says it carries. */
  refusal(carries: 'tunnel' | 'http'): TunnelRefusal | null {
    if (carries === 'http' && this.settings.plainHttp === false) {
      return 'plain-http';
    }
    return (
      this.pause() ??
      (this.settings.maxTunnels != null && this.tunnels >= this.settings.maxTunnels ? 'busy' : null)
    );
  }

  /** Why the agent takes no tunnel at all now (outside its hours, or its day's GB used), or null. */
  pause(): TunnelRefusal | null {
    if (this.hours && !isWithinHours(this.hours, this.now().getHours())) {
      return 'outside-hours';
    }
    const { gbPerDay } = this.settings;
    if (gbPerDay != null && this.carriedToday >= gbPerDay * 1e9) {
      return 'daily-limit';
    }
    return null;
  }

  private rollDay(): void {
    const today = localDay(this.now());
    if (today !== this.day) {
      this.day = today;
      this.bytesToday = 0;
    }
  }
}
