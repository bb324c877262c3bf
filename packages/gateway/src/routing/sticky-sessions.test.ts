import { describe, expect, it } from 'vitest';
import type { Exit } from '../store.ts';
import { ExitIndex } from './exit-index.ts';
import { StickySessions } from './sticky-sessions.ts';

const exit = (id: string, country = 'DE'): Exit => ({
  id,
  kind: 'direct',
  poolType: 'residential',
  country,
  isRisky: false,
});

const indexOf = (...exits: Exit[]) => {
  const index = new ExitIndex();
  for (const each of exits) {
    index.add(each);
  }
  return index;
};

describe('sticky sessions', () => {
  it('keeps the exit for the window, then lets it go', () => {
    let now = 0;
    const sessions = new StickySessions(() => now);
    const exits = indexOf(exit('a'), exit('b'));
    sessions.bind('plan|job42', exits.get('b') as Exit, 60_000);
    now = 59_999;
    expect(sessions.get('plan|job42', exits, {})?.id).toBe('b');
    now = 60_000;
    expect(sessions.get('plan|job42', exits, {})).toBeUndefined();
  });

  it('lets go when the exit is gone or no longer matches, keeping the country it had', () => {
    const sessions = new StickySessions(() => 0);
    sessions.bind('k', exit('gone', 'DE'), 60_000);
    expect(sessions.get('k', indexOf(exit('a')), {})).toBeUndefined();
    // The next pick of the session stays in Germany unless the connection itself names countries.
    expect(sessions.keepCountry('k', {})).toEqual({ countries: ['DE'] });
    expect(sessions.keepCountry('k', { countries: ['FR'] })).toEqual({ countries: ['FR'] });
    expect(sessions.keepCountry('k', { excludeCountries: ['DE'] })).toEqual({ excludeCountries: ['DE'] });
    expect(sessions.keepCountry('other', {})).toEqual({});

    const exits = indexOf(exit('a', 'DE'));
    sessions.bind('k', exit('a'), 60_000);
    expect(sessions.get('k', exits, { countries: ['DE'] })?.id).toBe('a');
    expect(sessions.get('k', exits, { countries: ['FR'] })).toBeUndefined();
  });

  it('forgets a session, and its country, when its window ends', () => {
    let now = 0;
    const sessions = new StickySessions(() => now);
    sessions.bind('k', exit('a', 'DE'), 60_000);
    now = 60_000;
    expect(sessions.get('k', indexOf(exit('a')), {})).toBeUndefined();
    expect(sessions.size).toBe(0);
    expect(sessions.keepCountry('k', {})).toEqual({});
  });
});
