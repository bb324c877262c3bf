import { describe, expect, it } from 'vitest';
import type { Exit } from '../store.ts';
import { StickySessions } from './sticky-sessions.ts';

const exit = (id: string): Exit => ({
  id,
  kind: 'direct',
  poolType: 'residential',
  country: 'DE',
  isRisky: false,
});

describe('sticky sessions', () => {
  it('keeps the exit for the window, then lets it go', () => {
    let now = 0;
    const sessions = new StickySessions(() => now);
    const exits = [exit('a'), exit('b')];
    sessions.bind('plan|job42', exits[1] as Exit, 60_000);
    now = 59_999;
    expect(sessions.get('plan|job42', exits)?.id).toBe('b');
    now = 60_000;
    expect(sessions.get('plan|job42', exits)).toBeUndefined();
  });

  it('lets go when the exit is gone or no longer matches', () => {
    const sessions = new StickySessions(() => 0);
    sessions.bind('k', exit('gone'), 60_000);
    expect(sessions.get('k', [exit('a')])).toBeUndefined();
    expect(sessions.size).toBe(0);
  });
});
