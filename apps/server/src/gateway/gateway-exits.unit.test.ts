import type { ExitRow } from '@bytegate/db/queries';
import { describe, expect, it } from 'vitest';
import { ExitPools } from './gateway-exits.ts';

const row = (i: number, changes: Partial<ExitRow> = {}): ExitRow => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  name: `exit ${i}`,
  kind: 'direct',
  poolType: 'residential',
  localAddress: null,
  upstreamUrl: null,
  country: ['DE', 'FR', 'US'][i % 3] as string,
  state: null,
  city: `City ${i % 50}`,
  zip: null,
  asn: 64_500 + (i % 20),
  asnName: null,
  mobileGeneration: null,
  isRisky: false,
  isActive: true,
  outOfRotationAt: null,
  outOfRotationReason: null,
  createdAt: new Date(0),
  changedVersion: 1,
  ...changes,
});

describe('the gateway’s exit pools', () => {
  it('apply changes in slices, letting the event loop run between them', async () => {
    const pools = new ExitPools();
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    const applying = pools.apply(Array.from({ length: 50_000 }, (_, i) => row(i)));
    const applied = await applying;
    clearInterval(timer);
    expect(pools.index('residential').size).toBe(50_000);
    expect(applied.slices).toBeGreaterThan(1);
    expect(turns).toBeGreaterThan(0);
  });

  it('take out what was removed, switched off, out of rotation or moved to another pool', async () => {
    const pools = new ExitPools();
    await pools.apply([row(1), row(2), row(3), row(4), row(5)]);
    await pools.apply(
      [
        row(2, { isActive: false }),
        row(3, { outOfRotationAt: new Date() }),
        row(4, { poolType: 'mobile' }),
        row(5, { kind: 'upstream', upstreamUrl: 'not a url' }),
        row(6, { city: 'Lyon' }),
      ],
      [row(1).id],
    );
    expect([...pools.index('residential')].map((exit) => exit.id)).toEqual([row(6).id]);
    expect(pools.index('residential').get(row(6).id)?.city).toBe('lyon');
    expect([...pools.index('mobile')].map((exit) => exit.id)).toEqual([row(4).id]);
  });
});
