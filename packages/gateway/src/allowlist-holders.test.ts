import { describe, expect, it } from 'vitest';
import { type AllowlistEntry, resolveAllowlistHolders } from './allowlist-holders.ts';

const entry = (planId: string, fields: Partial<AllowlistEntry> = {}): AllowlistEntry => ({
  address: '8.8.8.8',
  planId,
  isProved: true,
  isActive: true,
  ...fields,
});

describe('resolveAllowlistHolders', () => {
  it('gives a proved address to its plan, or to its proxy user', () => {
    expect(resolveAllowlistHolders([entry('a')]).holders.get('8.8.8.8')).toEqual({ planId: 'a' });
    expect(resolveAllowlistHolders([entry('a', { proxyUserId: 'u' })]).holders.get('8.8.8.8')).toEqual({
      planId: 'a',
      proxyUserId: 'u',
    });
  });

  it('lets nobody in at an address nobody proved, a plan’s or a proxy user’s', () => {
    for (const entries of [
      [entry('a', { isProved: false })],
      [entry('a', { isProved: false, proxyUserId: 'u' })],
      [entry('a', { isProved: false }), entry('b', { isProved: false, proxyUserId: 'u' })],
    ]) {
      const { holders, shared } = resolveAllowlistHolders(entries);
      expect(holders.size).toBe(0);
      expect(shared.size).toBe(0);
    }
  });

  it('gives an address to its one proved entry whatever else lists it, in either order', () => {
    const proved = entry('victim');
    const unproved = entry('attacker', { isProved: false, proxyUserId: 'u' });
    for (const entries of [
      [proved, unproved],
      [unproved, proved],
    ]) {
      expect(resolveAllowlistHolders(entries).holders.get('8.8.8.8')).toEqual({ planId: 'victim' });
    }
  });

  it('lets nobody in where two proved entries meet, a plan and a proxy user alike, and says so', () => {
    for (const entries of [
      [entry('a'), entry('b')],
      [entry('a'), entry('b', { proxyUserId: 'u' })],
      [entry('b', { proxyUserId: 'u' }), entry('a')],
    ]) {
      const { holders, shared } = resolveAllowlistHolders(entries);
      expect(holders.has('8.8.8.8')).toBe(false);
      expect([...shared]).toEqual(['8.8.8.8']);
    }
  });

  it('lets a deactivated plan hold on to nothing beside an active one', () => {
    const { holders } = resolveAllowlistHolders([entry('old', { isActive: false }), entry('a')]);
    expect(holders.get('8.8.8.8')).toEqual({ planId: 'a' });
  });
});
