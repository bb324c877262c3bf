import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '@bytegate/db';
import { createUser, getActiveUserByEmail, listAuditEntries, sumLedger } from '@bytegate/db/queries';
import { seedDataDir } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/bytegate.mjs', import.meta.url));

describe('bytegate balance adjust', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'bytegate-cli-'));
    await seedDataDir(dataDir);
    const database = await createDb({ dataDir });
    await database.migrate();
    await createUser(database.db, {
      email: 'buyer@example.com',
      passwordHash: '!',
      firstName: 'Buyer',
      lastName: 'One',
    });
    await database.close();
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  const run = (...args: string[]) =>
    spawnSync(process.execPath, [bin, 'balance', 'adjust', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    });

  it('credits and debits through the ledger and never goes below zero', async () => {
    const credit = run('--email', 'Buyer@example.com', '--amount', '12.50', '--reason', 'goodwill');
    expect(credit.stderr).toBe('');
    expect(credit.status).toBe(0);
    expect(credit.stdout).toContain('balance is now $12.50');

    const debit = run('--email', 'buyer@example.com', '--amount', '-2.25', '--reason', 'correction');
    expect(debit.status).toBe(0);
    expect(debit.stdout).toContain('balance is now $10.25');

    const tooMuch = run('--email', 'buyer@example.com', '--amount', '-10.26', '--reason', 'oops');
    expect(tooMuch.status).toBe(1);
    expect(tooMuch.stderr).toContain('would take it below zero');

    const database = await createDb({ dataDir });
    const user = await getActiveUserByEmail(database.db, { email: 'buyer@example.com' });
    expect(user?.balanceCents).toBe(1025);
    expect(await sumLedger(database.db, { userId: user?.id ?? '' })).toBe(1025);
    // Each adjustment is a staff action in the audit log, by the command line.
    const { rows } = await listAuditEntries(database.db, {
      action: 'customer.balance.adjust',
      limit: 10,
      offset: 0,
    });
    expect(rows.map((row) => [row.actorEmail, row.before, row.after?.balanceCents, row.reason])).toEqual([
      ['cli', { balanceCents: 1250 }, 1025, 'correction'],
      ['cli', { balanceCents: 0 }, 1250, 'goodwill'],
    ]);
    await database.close();
  }, 60_000); // CLI processes, each opening the embedded database

  it('names the problem with an unknown email or a bad argument', () => {
    const unknown = run('--email', 'nobody@example.com', '--amount', '5', '--reason', 'x');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No account has the email nobody@example.com');
    const badAmount = run('--email', 'buyer@example.com', '--amount', '5.001', '--reason', 'x');
    expect(badAmount.status).not.toBe(0);
    expect(badAmount.stderr).toContain("option '--amount <dollars>' argument '5.001' is invalid");
    const missing = run('--email', 'buyer@example.com');
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain("required option '--amount <dollars>' not specified");
  }, 60_000); // CLI processes, each opening the embedded database
});
