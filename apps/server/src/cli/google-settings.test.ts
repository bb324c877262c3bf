import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/bytegate.mjs', import.meta.url));

// `bytegate start` with half of sign-in with Google's settings stops before it opens anything, naming
// the missing variable, as with a payment provider's.
describe('bytegate start with half of the Google settings', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'bytegate-google-'));
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, [bin, 'start'], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: '1', ...env },
      encoding: 'utf8',
      timeout: 30_000,
    });

  it('names the missing one and exits 1', () => {
    const withoutSecret = start({
      GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: '',
    });
    expect(withoutSecret.status).toBe(1);
    expect(withoutSecret.stderr).toContain(
      'GOOGLE_CLIENT_SECRET: must be set, because GOOGLE_CLIENT_ID is (Sign-in with Google needs GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET; leave them all unset to turn it off)',
    );
    const withoutId = start({ GOOGLE_CLIENT_ID: '', GOOGLE_CLIENT_SECRET: 'secret' });
    expect(withoutId.status).toBe(1);
    expect(withoutId.stderr).toContain('GOOGLE_CLIENT_ID: must be set, because GOOGLE_CLIENT_SECRET is');
    const plainHttp = start({
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      GOOGLE_ISSUER_URL: 'http://issuer.example',
    });
    expect(plainHttp.status).toBe(1);
    expect(plainHttp.stderr).toContain('GOOGLE_ISSUER_URL: must be an https:// issuer URL');
    // Nothing was opened or created.
    expect(readdirSync(dataDir)).toEqual([]);
  });
});
