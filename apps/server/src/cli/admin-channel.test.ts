import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DbHandle } from '@bytegate/db';
import { createUser } from '@bytegate/db/queries';
import { createTestDb } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { adminSocketPath, openAdminChannel, sendToRunningServer } from './admin-channel.ts';

/** A raw request to the channel, as something other than `bytegate` might send it. */
function post(socketPath: string, path: string, body: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request({ socketPath, path, method: 'POST' }, (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the admin channel', () => {
  let dataDir: string;
  let database: DbHandle;
  let channel: Awaited<ReturnType<typeof openAdminChannel>>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'bytegate-channel-'));
    database = await createTestDb('pglite');
    await createUser(database.db, {
      email: 'ops@example.com',
      passwordHash: '!',
      firstName: 'O',
      lastName: 'P',
    });
    // A socket file left by a server that was killed is replaced, not a reason to fail.
    const socketPath = adminSocketPath(dataDir);
    rmSync(join(dataDir, 'run'), { recursive: true, force: true });
    await openAdminChannel({ dataDir, services: { db: database.db, config: loadConfig({}) } }).then((first) =>
      first.close(),
    );
    writeFileSync(socketPath, '');
    channel = await openAdminChannel({
      dataDir,
      services: { db: database.db, config: loadConfig({ DATA_DIR: dataDir }) },
    });
  });
  afterAll(async () => {
    await channel?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is a socket only its OS user can reach', () => {
    expect(statSync(channel.socketPath).isSocket()).toBe(true);
    expect(statSync(channel.socketPath).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'run')).mode & 0o777).toBe(0o700);
  });

  it("runs a back-office command on the server's database and answers what it printed", async () => {
    const result = await sendToRunningServer(channel.socketPath, ['customers', 'search', 'ops@'], '/');
    expect(result).toEqual({
      stdout: expect.stringContaining('ops@example.com  active  $0.00'),
      stderr: '',
      exitCode: 0,
    });
    const refused = await sendToRunningServer(channel.socketPath, ['threads', 'set', 'ops@example.com'], '/');
    expect(refused?.exitCode).toBe(1);
    expect(refused?.stderr).toContain("required option '--pool <pool>' not specified");
    const unknown = await sendToRunningServer(
      channel.socketPath,
      ['balance', 'adjust', '--email', 'nobody@example.com', '--amount', '1', '--reason', 'x'],
      '/',
    );
    expect(unknown).toMatchObject({
      exitCode: 1,
      stderr: 'error: No account has the email nobody@example.com\n',
    });
  });

  it('runs no other command: not start, not migrate, and nothing for a request it does not understand', async () => {
    for (const name of ['start', 'migrate']) {
      const result = await sendToRunningServer(channel.socketPath, [name], '/');
      expect(result).toMatchObject({
        exitCode: 1,
        stderr: `error: a running server does not run \`bytegate ${name}\`\n`,
      });
    }
    expect((await post(channel.socketPath, '/commands', 'not json')).status).toBe(400);
    expect((await post(channel.socketPath, '/commands', JSON.stringify({ argv: 'balance' }))).status).toBe(
      400,
    );
    expect((await post(channel.socketPath, '/other', '{}')).status).toBe(404);
  });

  it('answers null when no server listens, so the command opens the files itself', async () => {
    expect(
      await sendToRunningServer(join(dataDir, 'nothing.sock'), ['customers', 'search', 'x'], '/'),
    ).toBeNull();
  });
});
