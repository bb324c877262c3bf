import type { SourceProbe } from '@bytegate/contracts/admin-supply';

/** How long ago, in the command line's words: `40 s ago`, `2 min ago`, `3 h ago`, `2 d ago`. */
export function agoText(at: Date, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - at.getTime()) / 1000));
  if (seconds < 60) {
    return `${seconds} s ago`;
  }
  if (seconds < 3600) {
    return `${Math.floor(seconds / 60)} min ago`;
  }
  return seconds < 86_400 ? `${Math.floor(seconds / 3600)} h ago` : `${Math.floor(seconds / 86_400)} d ago`;
}

/**
 * A network's last probe in `bytegate sources list`: `ok, 120 ms, 40 s ago`, `failed 3x, 1 min ago,
 * tried last`; `not yet` before its first; empty for our own exits (the exit probe checks those).
 */
export function sourceProbeText(
  kind: 'exits' | 'network',
  probe: SourceProbe | null,
  now = new Date(),
): string {
  if (kind === 'exits') {
    return '';
  }
  if (!probe) {
    return 'not yet';
  }
  const ago = agoText(new Date(probe.checkedAt), now);
  if (probe.isOk) {
    return `ok, ${probe.connectMs ?? 0} ms, ${ago}`;
  }
  const times = probe.consecutiveFailures > 1 ? ` ${probe.consecutiveFailures}x` : '';
  return `failed${times}, ${ago}${probe.isHeldDown ? ', tried last' : ''}`;
}
