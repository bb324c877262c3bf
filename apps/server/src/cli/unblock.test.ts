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

describe('bytegate unblock', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'bytegate-cli-'));
    await seedDataDir(dataDir);
    const database = await createDb({ dataDir });
    await database.migrate();
    await createUser(database.db, {
      email: 'scraper@example.com',
      passwordHash: '!',
      firstName: 'Scraper',
      lastName: 'One',
    });
    await database.close();
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  const run = (...args: string[]) =>
    spawnSync(process.execPath, [bin, 'unblock', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    });

  it('opens ports and domains, lists them, and closes them again', async () => {
    const opened = run(
      '--email',
      'Scraper@example.com',
      '--port',
      '25',
      '--port',
      '587',
      '--host',
      'PayPal.com.',
    );
    expect(opened.stderr).toBe('');
    expect(opened.stdout).toContain('unblocked ports 25, 587; unblocked domains paypal.com.');
    expect(run('scraper@example.com', '--list').stdout).toContain(
      'unblocked ports 25, 587; unblocked domains paypal.com.',
    );
    const closed = run(
      'scraper@example.com',
      '--remove',
      '--port',
      '25',
      '--host',
      'paypal.com',
      '--reason',
      'Mail relay moved',
    );
    expect(closed.stdout).toContain('unblocked ports 587; unblocked domains none.');

    const database = await createDb({ dataDir });
    const user = await getActiveUserByEmail(database.db, { email: 'scraper@example.com' });
    expect(user?.unblockedPorts).toEqual([587]);
    expect(user?.unblockedHosts).toEqual([]);
    // Each change is a staff action in the audit log, by the command line; listing is not.
    const { rows } = await listAuditEntries(database.db, {
      action: 'customer.unblocks.change',
      limit: 10,
      offset: 0,
    });
    expect(rows.map((row) => [row.actorEmail, row.targetId, row.before, row.after, row.reason])).toEqual([
      [
        'cli',
        user?.id,
        { ports: [25, 587], hosts: ['paypal.com'] },
        { ports: [587], hosts: [] },
        'Mail relay moved',
      ],
      ['cli', user?.id, { ports: [], hosts: [] }, { ports: [25, 587], hosts: ['paypal.com'] }, null],
    ]);
    await database.close();
  }, 60_000); // CLI processes, each opening the embedded database

  it('names the problem with a bad port, a bad domain or an unknown email', () => {
    const badPort = run('--email', 'scraper@example.com', '--port', '70000');
    expect(badPort.status).not.toBe(0);
    expect(badPort.stderr).toContain('must be a port from 1 to 65535');
    const badHost = run('--email', 'scraper@example.com', '--host', 'http://x.com/');
    expect(badHost.status).not.toBe(0);
    expect(badHost.stderr).toContain('must be a domain name');
    const unknown = run('nobody@example.com', '--port', '25');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No account has the email nobody@example.com');
    expect(run('--port', '25').stderr).toContain('give the account');
    expect(run('scraper@example.com', '--list', '--port', '25').stderr).toContain('--list only shows');
    expect(run('scraper@example.com', '--remove').stderr).toContain('--remove needs the --port or --host');
  }, 60_000);
});
