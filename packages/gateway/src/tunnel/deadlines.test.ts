import { afterEach, describe, expect, it, vi } from 'vitest';
import { Deadlines } from './deadlines.ts';

describe('Deadlines: one timer for many deadlines of one length', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('expires each key once, in the order they were set, no earlier than its length', () => {
    vi.useFakeTimers();
    const expired: string[] = [];
    const deadlines = new Deadlines<{ name: string }>(1000, (key) => expired.push(key.name));
    const a = { name: 'a' };
    const b = { name: 'b' };
    deadlines.set(a);
    vi.advanceTimersByTime(400);
    deadlines.set(b);
    vi.advanceTimersByTime(599);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(expired).toEqual(['a']);
    vi.advanceTimersByTime(400);
    expect(expired).toEqual(['a', 'b']);
    vi.advanceTimersByTime(5000);
    expect(expired).toEqual(['a', 'b']);
    expect(deadlines.size).toBe(0);
  });

  it('never expires a deleted key, and keeps the first deadline when a key is set again', () => {
    vi.useFakeTimers();
    const expired: string[] = [];
    const deadlines = new Deadlines<{ name: string }>(1000, (key) => expired.push(key.name));
    const kept = { name: 'kept' };
    const cancelled = { name: 'cancelled' };
    deadlines.set(kept);
    deadlines.set(cancelled);
    vi.advanceTimersByTime(600);
    deadlines.delete(cancelled);
    // An absolute deadline: arming it again does not move it (a head trickling in byte by byte).
    deadlines.set(kept);
    vi.advanceTimersByTime(500);
    expect(expired).toEqual(['kept']);
    vi.advanceTimersByTime(2000);
    expect(expired).toEqual(['kept']);
  });

  it('fires at most a tenth of a short length late, and stops its timer when nothing is left', () => {
    vi.useFakeTimers();
    const expired: number[] = [];
    const deadlines = new Deadlines<object>(100, () => expired.push(Date.now()));
    const start = Date.now();
    deadlines.set({});
    vi.advanceTimersByTime(111);
    expect(expired).toHaveLength(1);
    expect((expired[0] ?? 0) - start).toBeGreaterThanOrEqual(100);
    expect((expired[0] ?? 0) - start).toBeLessThanOrEqual(110);
    expect(vi.getTimerCount()).toBe(0);
  });
});
