import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '@bytegate/db';
import { createUser, getActiveUserByEmail, listAuditEntries } from '@bytegate/db/queries';
import { seedDataDir } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/bytegate.mjs', import.meta.url));

describe('bytegate staff', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'bytegate-cli-'));
    await seedDataDir(dataDir);
    const database = await createDb({ dataDir });
    await database.migrate();
    await createUser(database.db, {
      email: 'ops@example.com',
      passwordHash: '!',
      firstName: 'Ops',
      lastName: 'One',
    });
    await database.close();
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  const run = (...args: string[]) =>
    spawnSync(process.execPath, [bin, 'staff', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    });

  it('grants a role and revokes it, each written to the audit log with actor cli', async () => {
    const grant = run('grant', '--email', 'Ops@example.com', '--role', 'admin', '--reason', 'first admin');
    expect(grant.stderr).toBe('');
    expect(grant.status).toBe(0);
    expect(grant.stdout).toContain('Ops@example.com is now admin (was customer).');

    const again = run('grant', '--email', 'ops@example.com', '--role', 'admin');
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('is already admin; nothing changed.');

    const support = run('grant', '--email', 'ops@example.com', '--role', 'support');
    expect(support.stdout).toContain('is now support (was admin).');

    const revoke = run('revoke', '--email', 'ops@example.com');
    expect(revoke.status).toBe(0);
    expect(revoke.stdout).toContain('is now customer (was support).');

    const database = await createDb({ dataDir });
    const user = await getActiveUserByEmail(database.db, { email: 'ops@example.com' });
    expect(user?.role).toBe('customer');
    const { rows } = await listAuditEntries(database.db, { limit: 10, offset: 0 });
    expect(
      rows.map((row) => [row.actorEmail, row.action, row.targetId, row.before, row.after, row.reason]),
    ).toEqual([
      ['cli', 'staff.revoke', user?.id, { role: 'support' }, { role: 'customer' }, null],
      ['cli', 'staff.grant', user?.id, { role: 'admin' }, { role: 'support' }, null],
      ['cli', 'staff.grant', user?.id, { role: 'customer' }, { role: 'admin' }, 'first admin'],
    ]);
    await database.close();
  }, 60_000); // CLI processes, each opening the embedded database

  it('names the problem with an unknown email or a bad role', () => {
    const unknown = run('grant', '--email', 'nobody@example.com', '--role', 'support');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No account has the email nobody@example.com');
    const badRole = run('grant', '--email', 'ops@example.com', '--role', 'root');
    expect(badRole.status).not.toBe(0);
    expect(badRole.stderr).toContain("argument 'root' is invalid. must be one of support, admin");
    const missing = run('grant', '--email', 'ops@example.com');
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain("required option '--role <role>' not specified");
  }, 60_000); // CLI processes, each opening the embedded database
});
