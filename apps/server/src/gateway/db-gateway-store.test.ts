import { createExits, deleteExit } from '@bytegate/db/queries';
import { createTestDb, testDatabaseKinds } from '@bytegate/db/testing';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DbGatewayStore } from './db-gateway-store.ts';

describe.each(testDatabaseKinds())('the gateway store over %s', (kind) => {
  it('reloads the exit inventory only when a write (any write, even by hand) moved its version', async () => {
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

      // Nothing changed: the same index, not a new read.
      await store.refresh();
      expect(store.exitIndex('residential')).toBe(loaded);

      // An operator's hand edit counts too (the trigger sees every statement).
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
});
