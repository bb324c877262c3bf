import { createExits, deleteExit, deleteExitRemovalsBefore } from '@bytegate/db/queries';
import { createTestDb, testDatabaseKinds } from '@bytegate/db/testing';
import type { ExitIndex } from '@bytegate/gateway';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DbGatewayStore } from './db-gateway-store.ts';

/** An index's exits as `country city`, sorted: what a pick can choose from. */
const exitsOf = (index: ExitIndex) => [...index].map((exit) => `${exit.country} ${exit.city ?? '-'}`).sort();

describe.each(testDatabaseKinds())('the gateway store over %s', (kind) => {
  it('reads the exit inventory again only when a write (any write, even by hand) moved its version', async () => {
    const handle = await createTestDb(kind);
    try {
      const store = new DbGatewayStore(handle.db);
      await store.refresh();
      expect([...store.exitIndex('residential')]).toEqual([]);

      const [added] = await createExits(handle.db, {
        exits: [
          { name: 'r1', kind: 'direct', poolType: 'residential', country: 'DE', localAddress: '127.0.0.2' },
        ],
      });
      await store.refresh();
      const loaded = store.exitIndex('residential');
      expect([...loaded].map((exit) => exit.country)).toEqual(['DE']);
      const read = store.lastExitRead;

      // Nothing changed: the same index, and nothing read.
      await store.refresh();
      expect(store.exitIndex('residential')).toBe(loaded);
      expect(store.lastExitRead).toBe(read);

      // An operator's hand edit counts too (the triggers see every statement).
      await handle.db.execute(sql`update exits set country = 'FR'`);
      await store.refresh();
      expect([...store.exitIndex('residential')].map((exit) => exit.country)).toEqual(['FR']);
      await handle.db.execute(sql`update exits set is_active = false`);
      await store.refresh();
      expect([...store.exitIndex('residential')]).toEqual([]);

      await handle.db.execute(sql`update exits set is_active = true`);
      await deleteExit(handle.db, { exitId: added?.id ?? '' });
      await store.refresh();
      expect([...store.exitIndex('residential')]).toEqual([]);
    } finally {
      await handle.close();
    }
  });

  it("keeps the agent hub's exits through a whole read of the inventory, and takes them out when told", async () => {
    const handle = await createTestDb(kind);
    try {
      const db = handle.db;
      await createExits(db, {
        exits: [
          { name: 'r1', kind: 'direct', poolType: 'residential', country: 'DE', localAddress: '127.0.0.2' },
        ],
      });
      const store = new DbGatewayStore(db);
      await store.refresh();
      const agents = store.agentExitIndex('residential');
      agents.add({
        id: 'agent-1',
        poolType: 'residential',
        country: 'US',
        city: 'austin',
        isRisky: false,
        kind: 'direct',
      });
      expect(exitsOf(store.exitIndex('residential'))).toEqual(['DE -', 'US austin']);

      // A TRUNCATE makes the store read the whole inventory into new indexes: the agent is still there.
      await db.execute(sql`truncate exits cascade`);
      await store.refresh();
      expect(store.lastExitRead).toEqual({ isFull: true, rows: 0, removals: 0 });
      expect(exitsOf(store.exitIndex('residential'))).toEqual(['US austin']);
      expect(agents.remove('agent-1')).toBe(true);
      expect([...store.exitIndex('residential')]).toEqual([]);
      await db.execute(sql`truncate exits cascade`);
      await store.refresh();
      expect([...store.exitIndex('residential')]).toEqual([]);
    } finally {
      await handle.close();
    }
  });

  it('applies each changed exit to the index from the rows that changed alone', async () => {
    const handle = await createTestDb(kind);
    try {
      const db = handle.db;
      const exit = (name: string, country: string, city: string) =>
        ({
          name,
          kind: 'direct',
          poolType: 'residential',
          country,
          city,
          localAddress: '127.0.0.2',
        }) as const;
      await createExits(db, {
        exits: [exit('a', 'DE', 'Berlin'), exit('b', 'FR', 'Paris'), exit('c', 'US', 'Austin')],
      });
      const store = new DbGatewayStore(db);
      await store.refresh();
      const index = store.exitIndex('residential');
      expect(store.lastExitRead).toEqual({ isFull: true, rows: 3, removals: 0 });
      expect(exitsOf(index)).toEqual(['DE berlin', 'FR paris', 'US austin'].sort());
      expect(index.pick({ countries: ['DE'], cities: ['munich'] })).toBeUndefined();

      const changes: Array<[string, () => Promise<unknown>, string[], { rows: number; removals: number }]> = [
        [
          'a city changed',
          () => db.execute(sql`update exits set city = 'Munich' where name = 'a'`),
          ['DE munich', 'FR paris', 'US austin'],
          { rows: 1, removals: 0 },
        ],
        [
          'one disabled',
          () => db.execute(sql`update exits set is_active = false where name = 'b'`),
          ['DE munich', 'US austin'],
          { rows: 1, removals: 0 },
        ],
        [
          'one deleted',
          () => db.execute(sql`delete from exits where name = 'c'`),
          ['DE munich'],
          { rows: 0, removals: 1 },
        ],
        [
          'one added',
          () => createExits(db, { exits: [exit('d', 'GB', 'London')] }),
          ['DE munich', 'GB london'],
          { rows: 1, removals: 0 },
        ],
        [
          'one taken out of rotation and one moved to another pool',
          () =>
            db.transaction(async (tx) => {
              await tx.execute(sql`update exits set out_of_rotation_at = now() where name = 'a'`);
              await tx.execute(sql`update exits set pool_type = 'mobile' where name = 'd'`);
            }),
          [],
          { rows: 2, removals: 0 },
        ],
      ];
      for (const [what, change, expected, read] of changes) {
        await change();
        await store.refresh();
        // The same index, updated in place.
        expect(store.exitIndex('residential'), what).toBe(index);
        expect(exitsOf(index), what).toEqual(expected.sort());
        expect(store.lastExitRead, what).toEqual({ isFull: false, ...read });
      }
      expect(exitsOf(store.exitIndex('mobile'))).toEqual(['GB london']);
      expect(index.pick({ countries: ['DE'], cities: ['munich'] })).toBeUndefined();
      await db.execute(sql`update exits set out_of_rotation_at = null where name = 'a'`);
      await store.refresh();
      expect(index.pick({ countries: ['DE'], cities: ['munich'] })?.city).toBe('munich');

      // Removals this store has not seen were pruned: it reads the whole inventory again, once.
      await db.execute(sql`delete from exits where name = 'd'`);
      await deleteExitRemovalsBefore(db, { before: new Date(Date.now() + 60_000) });
      await store.refresh();
      expect(store.lastExitRead).toEqual({ isFull: true, rows: 1, removals: 0 });
      expect(exitsOf(store.exitIndex('residential'))).toEqual(['DE munich']);
      expect([...store.exitIndex('mobile')]).toEqual([]);
      await db.execute(sql`update exits set city = 'Hamburg' where name = 'a'`);
      await store.refresh();
      expect(store.lastExitRead).toEqual({ isFull: false, rows: 1, removals: 0 });
      expect(exitsOf(store.exitIndex('residential'))).toEqual(['DE hamburg']);

      // A TRUNCATE names no rows: every store reads the whole (empty) inventory.
      await db.execute(sql`truncate exits cascade`);
      await store.refresh();
      expect(store.lastExitRead).toEqual({ isFull: true, rows: 0, removals: 0 });
      expect([...store.exitIndex('residential')]).toEqual([]);
    } finally {
      await handle.close();
    }
  });

  it.runIf(kind === 'postgres')(
    'never misses a write that committed after a later one started (versions commit in order)',
    async () => {
      const handle = await createTestDb(kind);
      const first = new pg.Client({ connectionString: handle.databaseUrl });
      const second = new pg.Client({ connectionString: handle.databaseUrl });
      try {
        await createExits(handle.db, {
          exits: ['a', 'b'].map((name) => ({
            name,
            kind: 'direct' as const,
            poolType: 'residential' as const,
            country: 'DE',
            localAddress: '127.0.0.2',
          })),
        });
        const store = new DbGatewayStore(handle.db);
        await store.refresh();
        await Promise.all([first.connect(), second.connect()]);
        await first.query('begin');
        await first.query("update exits set city = 'Berlin' where name = 'a'");
        // The second writer waits for the first's version before writing a row: it cannot take a
        // version the store passes while the first is still open.
        await second.query('begin');
        const secondWrite = second.query("update exits set city = 'Bonn' where name = 'b'");
        await store.refresh();
        await first.query('commit');
        await secondWrite;
        await store.refresh();
        expect(exitsOf(store.exitIndex('residential'))).toEqual(['DE -', 'DE berlin']);
        await second.query('commit');
        await store.refresh();
        expect(exitsOf(store.exitIndex('residential'))).toEqual(['DE berlin', 'DE bonn']);
        expect(store.lastExitRead).toEqual({ isFull: false, rows: 1, removals: 0 });
      } finally {
        await Promise.all([first.end(), second.end()]);
        await handle.close();
      }
    },
  );
});
