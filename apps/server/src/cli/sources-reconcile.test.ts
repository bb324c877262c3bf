import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '@bytegate/db';
import { addSourceUsage, getSourceByName, listAuditEntries, listVendorUsage } from '@bytegate/db/queries';
import { seedDataDir } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_FLAGGED } from './sources-reconcile.ts';

const bin = fileURLToPath(new URL('../../bin/bytegate.mjs', import.meta.url));
const GB = 1024 ** 3;
const DAY_MS = 24 * 60 * 60 * 1000;
const dayAgo = (daysAgo: number) => new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - daysAgo * DAY_MS);
const dateAgo = (daysAgo: number) => dayAgo(daysAgo).toISOString().slice(0, 10);

// `bytegate sources reconcile` and `reconciliation` on the embedded database: an Oxylabs network at
// $1.20 a GB that carried 1 GB two days ago and 2 GB yesterday, and the vendor's export saying 1 GiB and
// 2.2 GiB (+10%: flagged, 214,748,365 bytes, 24 cents), then its correction (+1%: within 2%).
describe('bytegate sources reconcile', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'bytegate-reconcile-'));
    await seedDataDir(dataDir);
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
    const database = await createDb({ dataDir });
    const source = await getSourceByName(database.db, { name: 'Oxylabs residential' });
    for (const [daysAgo, bytes] of [
      [2, GB],
      [1, 2 * GB],
    ] as const) {
      await addSourceUsage(database.db, {
        day: dayAgo(daysAgo),
        deltas: [{ sourceId: source?.id ?? '', carriedBytes: bytes, billedBytes: bytes }],
      });
    }
    await database.close();
  }, 300_000);
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  function run(...args: string[]) {
    return spawnSync(process.execPath, [bin, 'sources', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', SUPPLY_RECONCILE_TOLERANCE_PCT: '2' },
      encoding: 'utf8',
    });
  }
  const file = (name: string, content: string) => {
    const path = join(dataDir, name);
    writeFileSync(path, content);
    return path;
  };

  it('imports an export, prints the days with the flagged one, shows it again, and audits it', async () => {
    const csv = file('march.csv', `Date,Traffic,Unit\n${dateAgo(2)},1,GiB\n${dateAgo(1)},2.2,GiB\n`);
    const imported = run('reconcile', 'Oxylabs residential', csv, '--reason', 'March invoice');
    expect(imported.stderr).toBe('');
    // A flagged day: the import worked, and a cron job sees a status of its own (not 1, a failure).
    expect(EXIT_FLAGGED).toBe(2);
    expect(imported.status).toBe(EXIT_FLAGGED);
    const out = imported.stdout;
    expect(out).toContain(
      `Imported 2 days of Oxylabs residential's vendor usage, ${dateAgo(2)} to ${dateAgo(1)}, from 2 rows.`,
    );
    expect(out).toMatch(new RegExp(`${dateAgo(2)}.*'1\\.000'.*'1\\.000'.*'0'.*'0\\.00%'.*'\\$0\\.00'.*''`));
    expect(out).toMatch(
      new RegExp(
        `${dateAgo(1)}.*'2\\.000'.*'2\\.200'.*'\\+214,748,365'.*'\\+10\\.00%'.*'\\+\\$0\\.24'.*'FLAGGED'`,
      ),
    );
    expect(out).toContain(
      "2 of 2 days have the vendor's figure: ours 3.000 GB, the vendor's 3.200 GB, difference +0.200 GB (+6.67%), +$0.24 at each day's cost.",
    );
    expect(out).toContain('Flagged, over 2% (SUPPLY_RECONCILE_TOLERANCE_PCT): 1 day');
    expect(out).toContain(`  ${dateAgo(1)}: the vendor 2.200 GB, ours 2.000 GB, +0.200 GB (+10.00%), +$0.24`);

    const again = run('reconciliation', 'Oxylabs residential', '--days', '7');
    expect(again.stderr).toBe('');
    expect(again.status).toBe(EXIT_FLAGGED);
    expect(again.stdout).toContain('2 of 7 days have the vendor');
    expect(again.stdout).toContain('Flagged, over 2% (SUPPLY_RECONCILE_TOLERANCE_PCT): 1 day');

    const database = await createDb({ dataDir });
    const { rows } = await listAuditEntries(database.db, { action: 'source.reconcile', limit: 5, offset: 0 });
    expect(rows.map((row) => [row.actorEmail, row.reason, row.after])).toEqual([
      [
        'cli',
        'March invoice',
        expect.objectContaining({ vendorBytes: { [dateAgo(2)]: GB, [dateAgo(1)]: 2_362_232_013 } }),
      ],
    ]);
    await database.close();
  }, 300_000);

  it('refuses a bad file with every bad line, a missing reason and a bad option, and stores nothing', async () => {
    // 1,5 unquoted in a comma-separated file is two fields: refused, never read as 1 GB.
    const bad = file('bad.csv', `Date,Traffic (GB)\n${dateAgo(3)},1,5\n${dateAgo(2)},abc\n`);
    const refused = run('reconcile', 'Oxylabs residential', bad, '--reason', 'April invoice');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      [
        'error: nothing imported, 2 lines have problems:',
        '  line 2: the line has 3 fields where the header has 2: a number with a comma in it (1,5 or 1,234) must be quoted ("1,234"), or the file separated by ;',
        '  line 3: "abc" is not an amount of traffic, such as 1.25 GB or 1342177280\n',
      ].join('\n'),
    );
    // Nothing of the refused file was stored (the figures of the first test stand, two days ago's 1 GiB).
    const noReason = run('reconcile', 'Oxylabs residential', bad);
    expect(noReason.status).toBe(1);
    expect(noReason.stderr).toContain("error: required option '--reason <text>' not specified");
    const units = run('reconcile', 'Oxylabs residential', bad, '--reason', 'x y z', '--units', 'metric');
    expect(units.stderr).toBe('error: --units must be decimal or binary\n');
    const mark = run('reconcile', 'Oxylabs residential', bad, '--reason', 'x y z', '--decimal-mark', 'dot');
    expect([mark.status, mark.stderr]).toEqual([1, 'error: --decimal-mark must be point or comma\n']);
    const unknown = run('reconciliation', 'Nobody');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('error: No source is named Nobody');
    const database = await createDb({ dataDir });
    const stored = await listVendorUsage(database.db, {
      sourceId: (await getSourceByName(database.db, { name: 'Oxylabs residential' }))?.id ?? '',
      from: dayAgo(10),
      to: dayAgo(-1),
    });
    expect(stored.map((day) => day.vendorBytes)).toEqual([GB, 2_362_232_013]);
    await database.close();
  }, 300_000); // five CLI processes

  it('exits with 0 once every day is within the tolerance, reading a European export below its title', () => {
    // The vendor's corrected export: a title and a blank line above the header, `;` between fields,
    // a decimal comma. Yesterday is 2.02 GiB against our 2: +1%, within 2%.
    const corrected = file(
      'march-corrected.csv',
      `\uFEFFOxylabs traffic report\n\nDate;Traffic (GiB)\n${dateAgo(2)};1\n${dateAgo(1)};2,02\n`,
    );
    const imported = run('reconcile', 'Oxylabs residential', corrected, '--reason', 'Corrected invoice');
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toContain('days replaced their earlier figure');
    expect(imported.stdout).toContain(`${dateAgo(1)}`);
    expect(imported.stdout).toContain('No day differs by more than 2%.');
    expect(imported.status).toBe(0);
    const again = run('reconciliation', 'Oxylabs residential', '--days', '7');
    expect([again.status, again.stderr]).toEqual([0, '']);
  }, 300_000);
});
