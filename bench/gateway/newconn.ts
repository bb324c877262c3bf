// The new-connection load (newconn.c): built with the machine's C compiler into the bench's cache the first
// time (and again when the source changes), then run as an origin or as a load.

import type { ChildProcess } from 'node:child_process';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { spawnReady } from './processes.ts';

const run = promisify(execFile);
const source = fileURLToPath(new URL('./newconn.c', import.meta.url));

/** Builds the tool if needed; answers its path, or why it cannot be built. */
export function buildNewconn(cacheDir: string): { path: string } | { missing: string } {
  mkdirSync(cacheDir, { recursive: true });
  const path = join(cacheDir, 'newconn');
  if (existsSync(path) && statSync(path).mtimeMs >= statSync(source).mtimeMs) {
    return { path };
  }
  const built = spawnSync('cc', ['-O2', '-o', path, source], { encoding: 'utf8' });
  if (built.error || built.status !== 0) {
    return {
      missing: `cc could not build newconn.c: ${built.error?.message ?? built.stderr.trim().slice(-300)}`,
    };
  }
  return { path };
}

/** The C origin: every request answered 200 with 1 KiB. */
export async function startNewconnOrigin(tool: string): Promise<{ child: ChildProcess; port: number }> {
  const started = await spawnReady<{ port: number }>(tool, ['origin'], process.cwd());
  return { child: started.child, port: started.ready.port };
}

export interface NewconnResult {
  requests: number;
  errors: number;
  seconds: number;
  p50Us: number;
  p99Us: number;
  firstError: string;
}

export type NewconnRoute =
  | { kind: 'direct' }
  | { kind: 'connect' | 'socks'; port: number; credentials?: string | undefined };

/** `connections` loops of new connection, (CONNECT or SOCKS5,) GET, answer, close, for `seconds`. */
export async function newconnLoad(
  tool: string,
  route: NewconnRoute,
  originPort: number,
  connections: number,
  seconds: number,
): Promise<NewconnResult> {
  const args = [
    'load',
    route.kind,
    String(route.kind === 'direct' ? 0 : route.port),
    String(originPort),
    route.kind === 'direct' ? '-' : (route.credentials ?? '-'),
    String(connections),
    String(seconds),
  ];
  const { stdout } = await run(tool, args, { timeout: (seconds + 30) * 1000 });
  const result = JSON.parse(stdout) as NewconnResult;
  if (result.errors > 0) {
    throw new Error(
      `${result.errors} of ${result.requests + result.errors} failed, first: ${result.firstError}`,
    );
  }
  return result;
}
