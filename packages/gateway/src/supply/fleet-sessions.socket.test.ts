import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemorySessionDirectory } from '../testing/memory-session-directory.ts';
import { type NetworkFleet, startNetworkFleet } from '../testing/network-fleet.ts';
import { networkSourceIdOf, readNetworkBinding } from './route.ts';
import type { Source } from './source.ts';

// Two gateways of one fleet, sharing a session directory (in memory here; on Redis in the server's
// fleet-network-sessions.test.ts): a `sessid` through either reaches the wholesale network as one vendor
// session and leaves from one exit IP, and a session that moves on to another network moves for both.

let fleet: NetworkFleet;
let directory: MemorySessionDirectory;

beforeAll(async () => {
  directory = new MemorySessionDirectory();
  fleet = await startNetworkFleet([directory, directory]);
});
afterAll(async () => {
  await fleet?.close();
});
beforeEach(() => {
  for (const fake of [fleet.cheap, fleet.dear]) {
    fake.seen.length = 0;
    fake.failing = false;
  }
});

const cheapSource = (): Source => {
  const source = fleet.stores[0].listSources('residential').find((one) => one.id === 'cheap');
  if (!source) {
    throw new Error('no cheap source');
  }
  return source;
};

// SOCKS5 from here on: every request a new dial (a forward request may reuse a kept-alive tunnel).
const socks = { socks: true };

describe('a fleet sharing network sessions', () => {
  it('sends one sessid through either gateway as one vendor session, out of one exit IP', async () => {
    const username = `${fleet.plan.login}__cr.us;sessid.fleet1`;
    const seenAt = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const answer = await fleet.get((i % 2) as 0 | 1, username, { socks: i % 4 >= 2 });
      expect(answer.status).toBe(200);
      seenAt.add(answer.body);
    }
    expect(seenAt.size).toBe(1);
    // Each SOCKS5 request is a new connection to the network; each gateway keeps its HTTP one alive.
    expect(fleet.cheap.seen.length).toBeGreaterThanOrEqual(6);
    expect(new Set(fleet.cheap.seen.map((seen) => seen.username)).size).toBe(1);
    expect(fleet.cheap.seen[0]?.username).toMatch(/^customer-fakeuser-cc-US-sessid-\w+-sesstime-30$/);
    expect(new Set(fleet.cheap.seen.map((seen) => seen.exit))).toEqual(seenAt);
    // The fleet holds the network's binding, claimed once and agreed on by the other gateway.
    const bound = directory.bindings.get(`${fleet.plan.planId}|fleet1`)?.exitId ?? '';
    expect(readNetworkBinding(bound)?.sourceId).toBe('cheap');
    // Another sessid is another vendor session.
    expect((await fleet.get(1, `${fleet.plan.login}__cr.us;sessid.fleet2`)).status).toBe(200);
    expect(fleet.cheap.seen.at(-1)?.parsed?.session).not.toBe(fleet.cheap.seen[0]?.parsed?.session);
  });

  it('moves a session whose network fails to the next network for both gateways', async () => {
    const username = `${fleet.plan.login}__cr.us;sessid.moving`;
    // Both gateways send it to the cheap network and hold that binding.
    const first = await fleet.get(0, username, socks);
    expect(first.status).toBe(200);
    expect(await fleet.get(1, username, socks)).toEqual(first);
    expect(fleet.cheap.seen).toHaveLength(2);

    // The cheap network fails: gateway 0 moves the session on, within the connection, to the dear one.
    fleet.cheap.failing = true;
    const moved = await fleet.get(0, username, socks);
    expect(moved.status).toBe(200);
    expect(fleet.dear.seen).toHaveLength(1);
    const key = `${fleet.plan.planId}|moving`;
    expect(directory.calls.filter((call) => call.key === key && call.call === 'rebind')).toEqual([
      { call: 'rebind', key, exitId: expect.stringMatching(/^network:dear\|/) },
    ]);

    // Gateway 1, though it held the cheap network, sends it straight to the dear one as the fleet says:
    // the same vendor session, out of the same IP, and there it stays once the cheap network is back.
    fleet.cheap.failing = false;
    for (let i = 0; i < 4; i++) {
      expect(await fleet.get((1 - (i % 2)) as 0 | 1, username, socks)).toEqual(moved);
    }
    expect(fleet.cheap.seen.map((seen) => seen.answer)).toEqual(['open', 'open', 'failed']);
    expect(new Set(fleet.dear.seen.map((seen) => seen.username)).size).toBe(1);
    expect(networkSourceIdOf(directory.bindings.get(key)?.exitId ?? '')).toBe('dear');
  });

  it('moves a session off a network switched off, for both gateways', async () => {
    const username = `${fleet.plan.login}__cr.us;sessid.offline`;
    expect((await fleet.get(1, username, socks)).status).toBe(200);
    const [before] = fleet.cheap.seen;
    // The cheap network is switched off (both gateways read it): the session moves to the dear one,
    // fleet-wide, and stays one vendor session through either gateway.
    fleet.setSource({ ...cheapSource(), state: 'off' });
    const answers = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const answer = await fleet.get((i % 2) as 0 | 1, username, socks);
      expect(answer.status).toBe(200);
      answers.add(answer.body);
    }
    expect(answers.size).toBe(1);
    expect(fleet.cheap.seen).toEqual([before]);
    expect(new Set(fleet.dear.seen.map((seen) => seen.username)).size).toBe(1);
    fleet.setSource({ ...cheapSource(), state: 'active' });
  });
});
