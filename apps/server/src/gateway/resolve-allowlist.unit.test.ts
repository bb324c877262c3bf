import type { PlanAccess } from '@bytegate/gateway';
import { describe, expect, it } from 'vitest';
import { resolveAllowlist } from './db-gateway-store.ts';

const plan = (planId: string): PlanAccess => ({
  planId,
  login: planId,
  password: 'x',
  poolType: 'datacenter',
  threadLimit: 10,
  trafficLeftBytes: 1,
  isActive: true,
});
const plans = new Map(['a', 'b', 'c'].map((id) => [id, plan(id)]));

describe('resolveAllowlist', () => {
  it('gives an address listed once to its plan', () => {
    const { byAddress, shared } = resolveAllowlist(
      [{ address: '8.8.8.8', planId: 'a', isVerified: false }],
      plans,
    );
    expect(byAddress.get('8.8.8.8')?.planId).toBe('a');
    expect(shared.size).toBe(0);
  });

  it('gives a shared address to the one customer who added it from that address', () => {
    const { byAddress } = resolveAllowlist(
      [
        { address: '8.8.8.8', planId: 'a', isVerified: false },
        { address: '8.8.8.8', planId: 'b', isVerified: true },
      ],
      plans,
    );
    expect(byAddress.get('8.8.8.8')?.planId).toBe('b');
  });

  it('opens nothing at an address shared with no verified owner, or with two', () => {
    for (const verified of [
      [false, false],
      [true, true],
    ]) {
      const { byAddress, shared } = resolveAllowlist(
        [
          { address: '8.8.8.8', planId: 'a', isVerified: verified[0] as boolean },
          { address: '8.8.8.8', planId: 'c', isVerified: verified[1] as boolean },
        ],
        plans,
      );
      expect(byAddress.has('8.8.8.8')).toBe(false);
      expect([...shared]).toEqual(['8.8.8.8']);
    }
  });

  it('lets a deactivated plan hold on to nothing beside an active one', () => {
    const withInactive = new Map([...plans, ['old', { ...plan('old'), isActive: false }]]);
    const { byAddress } = resolveAllowlist(
      [
        { address: '8.8.8.8', planId: 'old', isVerified: true },
        { address: '8.8.8.8', planId: 'a', isVerified: false },
      ],
      withInactive,
    );
    expect(byAddress.get('8.8.8.8')?.planId).toBe('a');
  });

  it('ignores entries of plans it does not know', () => {
    const { byAddress } = resolveAllowlist(
      [
        { address: '8.8.8.8', planId: 'gone', isVerified: true },
        { address: '8.8.8.8', planId: 'a', isVerified: false },
      ],
      plans,
    );
    expect(byAddress.get('8.8.8.8')?.planId).toBe('a');
  });
});
