import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '@bytegate/db';
import { createUser, getActiveUserByEmail, listAuditEntries, sumLedger } from '@bytegate/db/queries';
import { seedDataDir } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { adjustBalance } from '../services/billing/adjust-balance.ts';
import { purchasePlan } from '../services/billing/purchase-plan.ts';

const bin = fileURLToPath(new URL('../../bin/bytegate.mjs', import.meta.url));

describe('bytegate refund', () => {
  let dataDir: string;
  let orderId: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'bytegate-cli-'));
    await seedDataDir(dataDir);
    const database = await createDb({ dataDir });
    await database.migrate();
    const user = await createUser(database.db, {
      email: 'refunds@example.com',
      passwordHash: '!',
      firstName: 'Refund',
      lastName: 'One',
    });
    const ctx = { db: database.db, config: loadConfig({ DATA_DIR: dataDir }) };
    await adjustBalance(ctx, { email: 'refunds@example.com', amountCents: 10_00, reason: 'test credit' });
    const bought = await purchasePlan(ctx, {
      userId: user?.id ?? '',
      poolType: 'residential',
      quantityGb: 5,
    });
    orderId = bought.order.orderId;
    await database.close();
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  const run = (...args: string[]) =>
    spawnSync(process.execPath, [bin, 'refund', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    });

  it('shows a refund with --dry-run, makes it once, and audits it by the command line', async () => {
    const dryRun = run('--order', orderId.toLowerCase(), '--dry-run');
    expect(dryRun.stderr).toBe('');
    expect(dryRun.stdout).toBe(
      `${orderId} would refund 5.00 GB (5368709120 bytes) of 5.00 GB unused: $9.95 back to the balance, leaving $10.00.\n`,
    );

    const done = run('--order', orderId, '--reason', 'Bought the wrong pool');
    expect(done.stderr).toBe('');
    expect(done.status).toBe(0);
    expect(done.stdout).toBe(
      `Refunded ${orderId}: 5.00 GB (5368709120 bytes) of 5.00 GB unused came off the plan and $9.95 went back to the balance; balance is now $10.00.\n`,
    );

    const again = run('--order', orderId, '--reason', 'Twice');
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(new RegExp(`^error: ${orderId} was already refunded \\(\\$9\\.95 on `));

    const database = await createDb({ dataDir });
    const user = await getActiveUserByEmail(database.db, { email: 'refunds@example.com' });
    expect(user?.balanceCents).toBe(10_00);
    expect(await sumLedger(database.db, { userId: user?.id ?? '' })).toBe(10_00);
    const { rows } = await listAuditEntries(database.db, { action: 'order.refund', limit: 10, offset: 0 });
    expect(rows.map((row) => [row.actorEmail, row.targetId, row.after?.amountCents, row.reason])).toEqual([
      ['cli', user?.id, 995, 'Bought the wrong pool'],
    ]);
    await database.close();
  }, 60_000); // CLI processes, each opening the embedded database

  it('names the problem with a bad order, an unknown one or no reason', () => {
    const malformed = run('--order', 'ORD-1', '--reason', 'x');
    expect(malformed.status).not.toBe(0);
    expect(malformed.stderr).toContain('must be an order number like BG-100042');
    const unknown = run('--order', 'BG-999999', '--reason', 'Testing');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('error: No order BG-999999');
    const noReason = run('--order', orderId);
    expect(noReason.status).not.toBe(0);
    expect(noReason.stderr).toContain("required option '--reason <text>' not specified");
  }, 60_000);
});
