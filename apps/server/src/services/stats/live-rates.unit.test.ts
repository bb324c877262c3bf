import { describe, expect, it } from 'vitest';
import { addLivePlans, LiveRates } from './live-rates.ts';

describe('live rates', () => {
  it('answers connections now and bytes per second over the window, from running sums', () => {
    const rates = new LiveRates(5000);
    rates.sample(0, new Map([['a', 2]]), new Map([['a', 1000]]));
    expect(rates.snapshot()).toEqual(new Map([['a', { openConnections: 2, bytesPerSecond: 0 }]]));
    rates.sample(1000, new Map([['a', 2]]), new Map([['a', 11_000]]));
    expect(rates.snapshot().get('a')).toEqual({ openConnections: 2, bytesPerSecond: 10_000 });
    for (let second = 2; second <= 10; second++) {
      rates.sample(second * 1000, new Map([['a', 1]]), new Map([['a', 11_000 + (second - 1) * 20_000]]));
    }
    // Over the last 5 s (from 5 s to 10 s): 20,000 bytes a second.
    expect(rates.snapshot().get('a')).toEqual({ openConnections: 1, bytesPerSecond: 20_000 });
  });

  it('lets a plan go once its connections closed and its bytes stopped for the window', () => {
    const rates = new LiveRates(3000);
    rates.sample(0, new Map([['a', 1]]), new Map([['a', 0]]));
    rates.sample(1000, new Map(), new Map([['a', 5000]]));
    expect(rates.snapshot().get('a')).toEqual({ openConnections: 0, bytesPerSecond: 5000 });
    for (let second = 2; second <= 6; second++) {
      rates.sample(second * 1000, new Map(), new Map([['a', 5000]]));
    }
    expect(rates.snapshot().size).toBe(0);
  });

  it('sums the gateways of a fleet', () => {
    const fleet = new Map();
    addLivePlans(fleet, [['a', { openConnections: 2, bytesPerSecond: 100 }]]);
    addLivePlans(fleet, [
      ['a', { openConnections: 3, bytesPerSecond: 50 }],
      ['b', { openConnections: 1, bytesPerSecond: 0 }],
    ]);
    expect(fleet).toEqual(
      new Map([
        ['a', { openConnections: 5, bytesPerSecond: 150 }],
        ['b', { openConnections: 1, bytesPerSecond: 0 }],
      ]),
    );
  });
});
