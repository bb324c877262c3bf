import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '@bytegate/db';
import { createUser, getActiveUserByEmail, listAuditEntries } from '@bytegate/db/queries';
import { seedDataDir } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTotpSecret } from '../services/accounts/two-factor/code-rules.ts';

const bin = fileURLToPath(new URL('../../bin/bytegate.mjs', import.meta.url));

describe('bytegate two-factor reset', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'bytegate-cli-'));
    await seedDataDir(dataDir);
    const database = await createDb({ dataDir });
    await database.migrate();
    await createUser(database.db, {
      email: 'lost.phone@example.com',
      passwordHash: '!',
      firstName: 'Lost',
      lastName: 'Phone',
      totpSecret: createTotpSecret(),
      totpEnabledAt: new Date(),
    });
    await database.close();
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  const run = (...args: string[]) =>
    spawnSync(process.execPath, [bin, 'two-factor', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    });

  it('needs a reason, turns two-factor off once, audited as cli, and says so when it is off', async () => {
    const missing = run('reset', 'lost.phone@example.com');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("required option '--reason <text>' not specified");

    const done = run('reset', 'Lost.Phone@example.com', '--reason', 'ID checked on a call');
    expect(done.stderr).toBe('');
    expect(done.status).toBe(0);
    expect(done.stdout).toContain('Two-factor authentication is off for Lost.Phone@example.com');

    const again = run('reset', 'lost.phone@example.com', '--reason', 'again');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('This customer does not have two-factor authentication on');

    const database = await createDb({ dataDir });
    try {
      const user = await getActiveUserByEmail(database.db, { email: 'lost.phone@example.com' });
      expect(user?.totpSecret).toBeNull();
      const { rows } = await listAuditEntries(database.db, { limit: 10, offset: 0 });
      expect(rows.map((row) => [row.actorEmail, row.action, row.targetId, row.reason])).toEqual([
        ['cli', 'customer.two_factor.reset', user?.id, 'ID checked on a call'],
      ]);
    } finally {
      await database.close();
    }
  }, 60_000); // CLI processes, each opening the embedded database
});
