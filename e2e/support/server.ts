import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedDataDir } from '@bytegate/db/testing';
import { freePort, freeRange } from '@bytegate/gateway/testing';

const root = fileURLToPath(new URL('../..', import.meta.url));
const START_DEADLINE_MS = 150_000;
/** A test that starts a server of its own inside itself: time for the start and for the test. */
export const SERVER_TEST_TIMEOUT_MS = 180_000;

export interface RunningServer {
  url: string;
  gatewayPort: number;
  socksPort: number;
  stickyPorts: { first: number; last: number };
  output: () => string;
  /** Its embedded database's directory (PGlite), readable once the server has stopped. */
  dataDir: string;
  /** Stops the server; its data directory is removed unless `keepData` (then the caller removes it). */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * The real product as `npm start` runs it (`bytegate start`), on its embedded database in a fresh
 * temporary DATA_DIR, on a free port of 127.0.0.1. A port found free can be taken by another test's
 * connection before the server binds it: the server then stops at once and is started on new ports.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(env);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) {
        throw error;
      }
    }
  }
}

async function startServerOnce(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const gatewayPort = await freePort();
  const socksPort = await freePort();
  const stickyPorts = await freeRange(5);
  const dataDir = mkdtempSync(join(tmpdir(), 'bytegate-e2e-'));
  // A migrated embedded database to start from: the server's first start would spend 4 s making one.
  if (!env.DATABASE_URL) {
    await seedDataDir(dataDir);
  }
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(process.execPath, ['apps/server/bin/bytegate.mjs', 'start'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      GATEWAY_HTTP_PORT: String(gatewayPort),
      GATEWAY_SOCKS_PORT: String(socksPort),
      GATEWAY_STICKY_PORTS: `${stickyPorts.first}-${stickyPorts.last}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    log += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    log += chunk;
  });
  // Six seconds on a quiet machine; under two busy loops and a second test file's server and browser a
  // start was seen past 60 s. The e2e hooks allow 180 s, so a start is given 150 s before it fails.
  const deadline = Date.now() + START_DEADLINE_MS;
  for (;;) {
    if (child.exitCode !== null) {
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`the server exited early:\n${log}`);
    }
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) {
        break;
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start within ${START_DEADLINE_MS / 1000} s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    gatewayPort,
    socksPort,
    stickyPorts,
    output: () => log,
    dataDir,
    async stop(options = {}) {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        if (child.exitCode === null) {
          child.kill('SIGKILL');
        }
      }
      if (!options.keepData) {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
