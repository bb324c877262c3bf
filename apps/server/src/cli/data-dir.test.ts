// DATA_DIR (the embedded database, the outbox's mail with live links, the admin socket) is the owner's
// only, whatever the shell's umask; an existing folder open to others is closed, and start-up says so.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type BytegateProcess, startBytegate } from '../testing/bytegate-process.ts';
import { buildSignup } from '../testing/test-server.ts';

/** Every file and folder under `dir` whose mode lets group or other in, with its mode. */
function openEntries(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      found.push(`${path} ${mode.toString(8)}`);
    }
  }
  return found;
}

describe('DATA_DIR of bytegate start on the embedded database', () => {
  let running: BytegateProcess | undefined;
  let root: string | undefined;
  afterEach(() => {
    running?.child.kill('SIGKILL');
    running = undefined;
    if (root) {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('is made owner-only, every file under it included, under the usual umask 022', async () => {
    process.umask(0o022);
    root = mkdtempSync(join(tmpdir(), 'bytegate-data-'));
    const dataDir = join(root, 'data');
    running = await startBytegate('bytegate start', { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' });
    const api = `http://127.0.0.1:${running.ports.http}`;
    // A password reset writes a mail with a live link to the outbox (no SMTP_URL).
    const signup = buildSignup();
    const post = (path: string, body: unknown) =>
      fetch(`${api}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post('/api/auth/signup', signup)).status).toBe(201);
    expect((await post('/api/auth/forgot-password', { email: signup.email })).status).toBe(202);
    const outbox = join(dataDir, 'outbox');
    const deadline = Date.now() + 10_000;
    const hasMail = () => existsSync(outbox) && readdirSync(outbox).some((name) => name.endsWith('.eml'));
    while (!hasMail()) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(readdirSync(dataDir).sort()).toEqual(expect.arrayContaining(['outbox', 'pglite', 'run']));
    expect(openEntries(dataDir)).toEqual([]);
    expect(running.output()).not.toContain('WARNING: DATA_DIR');
  }, 300_000);

  it('closes an existing DATA_DIR open to others, and says so in the log and the banner', async () => {
    root = mkdtempSync(join(tmpdir(), 'bytegate-data-'));
    const dataDir = join(root, 'data');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    running = await startBytegate('bytegate start', { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' });
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const output = running.output();
    // The pino line (warn is level 40) and the banner's.
    expect(output).toMatch(
      /"level":40[^\n]*"msg":"DATA_DIR [^"]+ was open to other users of this machine \(mode 755\); closed to mode 700 now/,
    );
    expect(output).toContain(
      `WARNING: DATA_DIR ${dataDir} was open to other users of this machine (mode 755)`,
    );
  }, 300_000);
});
