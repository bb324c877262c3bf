import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '@bytegate/db';
import { listAuditEntries } from '@bytegate/db/queries';
import { seedDataDir } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/bytegate.mjs', import.meta.url));

describe('bytegate exits', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'bytegate-exits-'));
    await seedDataDir(dataDir);
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  const run = (...args: string[]) =>
    spawnSync(process.execPath, [bin, 'exits', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    });

  it('adds, lists, imports and removes exits, refusing bad input with the field named', () => {
    const bad = run('add', '--name', 'x', '--pool', 'premium', '--country', 'USA');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('pool: pool must be datacenter, residential or mobile');
    expect(bad.stderr).toContain('country: country must be a two-letter ISO code');

    const added = run(
      'add',
      '--name',
      'Berlin 1',
      '--pool',
      'residential',
      '--country',
      'de',
      '--city',
      'Berlin',
      '--asn',
      '3320',
    );
    expect(added.stderr).toBe('');
    const id = /Added exit ([0-9a-f-]{36})/.exec(added.stdout)?.[1];
    expect(id).toBeDefined();

    const csv = join(dataDir, 'exits.csv');
    writeFileSync(
      csv,
      'name,pool,country,state,city,zip,asn,risky\nA,datacenter,US,Virginia,Ashburn,20147,16509,false\nB,mobile,GB,,London,,,1\n',
    );
    expect(run('import', csv).stdout).toContain('Imported 2 exits.');
    const broken = join(dataDir, 'broken.json');
    writeFileSync(
      broken,
      JSON.stringify([
        { name: 'ok', pool: 'mobile', country: 'FR' },
        { name: 'bad', pool: 'mobile', country: 'France' },
      ]),
    );
    const refused = run('import', broken);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('nothing imported');
    expect(refused.stderr).toContain('row 2: country');

    const list = run('list');
    expect(list.stdout).toContain('Berlin 1');
    expect(list.stdout).toContain('Ashburn');
    expect(list.stdout).not.toContain("'ok'");

    expect(run('remove', id ?? '').stdout).toContain(`Removed exit ${id}`);
    expect(run('remove', id ?? '').stderr).toContain(`no exit has the id ${id}`);
    expect(run('list').stdout).not.toContain('Berlin 1');
  }, 120_000); // a dozen CLI processes, each opening the embedded database

  it('adds an upstream exit and never prints its password', () => {
    const upstream = run(
      'add',
      '--name',
      'Via provider',
      '--pool',
      'mobile',
      '--country',
      'FR',
      '--kind',
      'upstream',
      '--upstream-url',
      'socks5://acct:Hunter2pw@198.51.100.4:1080',
    );
    expect(upstream.stderr).toBe('');
    const noUrl = run('add', '--name', 'x', '--pool', 'mobile', '--country', 'FR', '--kind', 'upstream');
    expect(noUrl.stderr).toContain('an upstream exit needs upstreamUrl');
    const withUpstream = run('list').stdout;
    expect(withUpstream).toContain('socks5://acct:***@198.51.100.4:1080');
    expect(withUpstream).not.toContain('Hunter2pw');
  }, 60_000);

  it('disables, enables and puts back an exit with a reason, each change audited as cli', async () => {
    const added = run(
      'add',
      '--name',
      'Audited 1',
      '--pool',
      'datacenter',
      '--country',
      'NL',
      '--reason',
      'new rack',
    );
    const id = /Added exit ([0-9a-f-]{36})/.exec(added.stdout)?.[1] ?? '';
    expect(run('disable', id).stderr).toContain("required option '--reason <text>' not specified");
    expect(run('disable', id, '--reason', 'rack maintenance').stdout).toContain(
      `Exit ${id} (Audited 1) is disabled.`,
    );
    expect(run('list').stdout).toMatch(/Audited 1.*disabled/);
    expect(run('enable', id, '--reason', 'rack back').stdout).toContain('is enabled.');
    // In rotation already: nothing to put back, nothing recorded.
    expect(run('restore', id, '--reason', 'just in case').stdout).toContain('is in rotation.');
    expect(run('disable', '00000000-0000-4000-8000-000000000000', '--reason', 'x y z').stderr).toContain(
      'no exit has the id 00000000-0000-4000-8000-000000000000',
    );
    expect(run('remove', id, '--reason', 'rack sold').stdout).toContain(`Removed exit ${id}.`);

    const database = await createDb({ dataDir });
    try {
      const { rows } = await listAuditEntries(database.db, { targetId: id, limit: 10, offset: 0 });
      expect(rows.map((row) => [row.actorEmail, row.action, row.reason])).toEqual([
        ['cli', 'exit.remove', 'rack sold'],
        ['cli', 'exit.enable', 'rack back'],
        ['cli', 'exit.disable', 'rack maintenance'],
        ['cli', 'exit.add', 'new rack'],
      ]);
    } finally {
      await database.close();
    }
  }, 120_000); // eight CLI processes, each opening the embedded database
});
