// The PostgreSQL pool through an outage: a transaction whose BEGIN never gets an answer must give its
// connection back, or a handful of them during an outage leave the pool empty for good.
import { createDb, type DbHandle } from '@bytegate/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpRelay, type TcpRelay } from './testing/tcp-relay.ts';

describe.runIf(process.env.TEST_DATABASE_URL)('transactions on a PostgreSQL pool', () => {
  let relay: TcpRelay;
  let handle: DbHandle;

  beforeAll(async () => {
    const url = new URL(process.env.TEST_DATABASE_URL as string);
    relay = await startTcpRelay({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${relay.port}`;
    // One connection, short waits: a connection kept by a failed transaction shows at once.
    handle = await createDb({
      databaseUrl: url.toString(),
      maxConnections: 1,
      connectTimeoutMs: 500,
      queryTimeoutMs: 300,
    });
  });

  afterAll(async () => {
    relay?.resume();
    await relay?.close();
  });

  const selectOne = () => handle.db.transaction(async (tx) => tx.execute(sql`select 1 as one`));

  it('runs its sessions without JIT (compiling short queries on large tables costs more than it saves)', async () => {
    const result = await handle.db.execute(sql`select current_setting('jit') as jit`);
    expect((result as unknown as { rows: Array<{ jit: string }> }).rows[0]?.jit).toBe('off');
  });

  it('gives the connection back when BEGIN fails, and the pool serves again once the database does', async () => {
    relay.pause();
    await expect(selectOne()).rejects.toThrow();
    await expect(selectOne()).rejects.toThrow();
    relay.resume();
    const result = await selectOne();
    expect((result as unknown as { rows: Array<{ one: number }> }).rows[0]?.one).toBe(1);
  });

  it('keeps the connection when only the callback failed, and rolls its work back', async () => {
    await expect(
      handle.db.transaction(async () => {
        throw new Error('refused by the use case');
      }),
    ).rejects.toThrow('refused by the use case');
    await selectOne();
  });

  it('closes with nothing left checked out', async () => {
    await handle.close();
  });
});
