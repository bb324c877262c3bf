import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '@bytegate/db';
import { getSourceByName, listAuditEntries, recordSourceProbe } from '@bytegate/db/queries';
import { seedDataDir } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/bytegate.mjs', import.meta.url));

describe('bytegate sources', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'bytegate-sources-'));
    await seedDataDir(dataDir);
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  const run = (...args: string[]) =>
    spawnSync(process.execPath, [bin, 'sources', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    });

  it('adds an Oxylabs network and a template one, lists them with the password hidden, and changes and disables one', async () => {
    const added = run(
      'add',
      '--name',
      'Oxylabs residential',
      '--pool',
      'residential',
      '--grammar',
      'oxylabs',
      '--url',
      'http://acct:S3cretPass@127.0.0.1:7777',
      '--cost-per-gb',
      '1.20',
    );
    expect(added.stderr).toBe('');
    expect(added.stdout).toMatch(
      /^Added source Oxylabs residential \([0-9a-f-]{36}\): network for the residential pool, active\./,
    );
    const template = run(
      'add',
      '--name',
      'Reseller X',
      '--pool',
      'mobile',
      '--grammar',
      'template',
      '--template',
      '{user}[-country-{country:lower}][-session-{session}]',
      '--url',
      'socks5://acct:Other9@127.0.0.1:1080',
      '--weight',
      '50',
    );
    expect(template.stderr).toBe('');

    const badTemplate = run(
      'add',
      '--name',
      'Y',
      '--pool',
      'mobile',
      '--grammar',
      'template',
      '--template',
      '{user}-{cuntry}',
      '--url',
      'http://a:b@127.0.0.1:1',
    );
    expect(badTemplate.status).toBe(1);
    expect(badTemplate.stderr).toMatch(/^error: template: unknown placeholder \{cuntry\}/);

    const set = run(
      'set',
      'Oxylabs residential',
      '--weight',
      '300',
      '--cost-per-gb',
      '0.95',
      '--reason',
      'better deal',
    );
    expect(set.stderr).toBe('');
    expect(set.stdout).toContain('Source Oxylabs residential: active, weight 300, $0.95 a GB.');
    const off = run('disable', 'Reseller X', '--reason', 'vendor outage');
    expect(off.stdout).toContain('Source Reseller X is off.');

    const list = run('list');
    expect(list.stderr).toBe('');
    expect(list.stdout).toContain('http://acct:***@127.0.0.1:7777');
    expect(list.stdout).toContain('socks5://acct:***@127.0.0.1:1080');
    expect(list.stdout).not.toContain('S3cretPass');
    expect(list.stdout).toContain('Own datacenter exits');
    expect(list.stdout).toMatch(/Reseller X.*off/);
    expect(list.stdout).toContain('last probe');
    expect(list.stdout).toMatch(/Oxylabs residential.*not yet/);

    const database = await createDb({ dataDir });
    const { rows } = await listAuditEntries(database.db, { limit: 10, offset: 0 });
    expect(rows.map((row) => [row.actorEmail, row.action, row.reason])).toEqual([
      ['cli', 'source.change', 'vendor outage'],
      ['cli', 'source.change', 'better deal'],
      ['cli', 'source.add', null],
      ['cli', 'source.add', null],
    ]);
    expect(JSON.stringify(rows)).not.toContain('S3cretPass');
    // The probe job's last word shows in the list: two failures in a row hold the network down.
    const oxylabs = await getSourceByName(database.db, { name: 'Oxylabs residential' });
    for (const seconds of [30, 10]) {
      await recordSourceProbe(database.db, {
        sourceId: oxylabs?.id ?? '',
        checkedAt: new Date(Date.now() - seconds * 1000),
        isOk: false,
        connectMs: null,
        refusal: 'failed',
        error: 'the network could not carry the probe (answered 502)',
        exitIp: null,
        isCounted: true,
      });
    }
    await database.close();
    expect(run('list').stdout).toMatch(/Oxylabs residential.*failed 2x, [^,]+ ago, tried last/);
  }, 120_000); // several CLI processes, each opening the embedded database

  it("imports a network's catalog from the vendor's file, refusing a bad one line by line, and shows it", async () => {
    const file = (name: string, content: string) => {
      const path = join(dataDir, name);
      writeFileSync(path, content);
      return path;
    };
    const bad = run(
      'catalog',
      'import',
      'Oxylabs residential',
      file('bad.csv', 'country,city\nUS,Dallas\nUK,London\n'),
      '--reason',
      'vendor list',
    );
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain(
      'error: Nothing was imported: 1 line has a problem:\n  line 3: country "UK" is not a country (an ISO 3166 code such as US, or its English name)',
    );
    const noReason = run('catalog', 'import', 'Oxylabs residential', file('x.csv', 'cc\nUS'));
    expect(noReason.stderr).toContain("required option '--reason <text>' not specified");

    const good = run(
      'catalog',
      'import',
      'Oxylabs residential',
      file('cities.json', JSON.stringify({ US: { TX: ['Dallas', 'Houston'] }, DE: ['Berlin'] })),
      '--replace',
      '--reason',
      'vendor list',
    );
    expect(good.stderr).toBe('');
    expect(good.stdout).toContain(
      'Imported 3 lines into the catalog of Oxylabs residential: 3 new places, 0 already there, 0 no longer listed dropped. It lists 3 places in 2 countries.',
    );
    const shown = run('catalog', 'show', 'Oxylabs residential');
    expect(shown.stderr).toBe('');
    expect(shown.stdout).toContain(
      'Oxylabs residential: 3 places in 2 countries (3 imported, 0 learned); 0 exits seen.',
    );
    expect(shown.stdout).toMatch(/'US'.*'United States'.*'Dallas, Houston'/);
    expect(run('catalog', 'show', 'Reseller X').stdout).toContain('The catalog of Reseller X is empty');
    const own = run('catalog', 'import', 'Own mobile exits', file('own.csv', 'cc\nUS'), '--reason', 'try');
    expect(own.stderr).toContain('is our own exits');

    const database = await createDb({ dataDir });
    const { rows } = await listAuditEntries(database.db, {
      action: 'source.catalog.import',
      limit: 10,
      offset: 0,
    });
    expect(rows.map((row) => [row.actorEmail, row.reason, row.after])).toEqual([
      [
        'cli',
        'vendor list',
        expect.objectContaining({ entries: 3, added: 3, replace: true, format: 'json' }),
      ],
    ]);
    await database.close();
  }, 180_000); // eight CLI processes

  it('names the problem with a bad pool, an unknown source or nothing to change', () => {
    const badPool = run(
      'add',
      '--name',
      'Z',
      '--pool',
      'premium',
      '--grammar',
      'oxylabs',
      '--url',
      'http://a:b@h:1',
    );
    expect(badPool.status).toBe(1);
    expect(badPool.stderr).toContain('error: pool must be datacenter, residential or mobile');
    const unknown = run('set', 'Nobody', '--weight', '1');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('error: No source is named Nobody');
    const nothing = run('set', 'Own mobile exits');
    expect(nothing.status).toBe(1);
    expect(nothing.stderr).toContain('nothing to change');
  }, 60_000);
});
