import { describe, expect, it } from 'vitest';
import { liveRetryDelayMs, parseServerSentEvents } from './live-stream.ts';

describe('the live view stream, read over fetch', () => {
  it('splits events and keeps the unfinished rest', () => {
    const { events, rest } = parseServerSentEvents('event: live\ndata: {"a":1}\n\nevent: live\ndata: {"a"');
    expect(events).toEqual([{ event: 'live', data: '{"a":1}' }]);
    expect(rest).toBe('event: live\ndata: {"a"');
  });

  it('waits half a minute after a 429, never retries after a 401, and backs off after errors', () => {
    expect(liveRetryDelayMs({ status: 429, failures: 1 })).toBe(30_000);
    expect(liveRetryDelayMs({ status: 401, failures: 1 })).toBeNull();
    expect(liveRetryDelayMs({ status: 200, failures: 0 })).toBe(1000);
    expect(liveRetryDelayMs({ status: null, failures: 1 })).toBe(2000);
    expect(liveRetryDelayMs({ status: 500, failures: 3 })).toBe(8000);
    expect(liveRetryDelayMs({ status: null, failures: 10 })).toBe(30_000);
  });
});
