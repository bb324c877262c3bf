import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { z } from 'zod';
import type { ServiceContext } from '../services/context.ts';
import { bufferedCliContext } from './context.ts';
import { BACK_OFFICE_COMMAND_NAMES, buildProgram, runCommandLine } from './program.ts';

// The admin channel: how `bytegate` back-office commands reach a server running on the embedded
// database, which only one process can open. The server listens on a Unix socket in DATA_DIR, in a
// directory only its OS user may enter, and runs each command it is sent on its own database, so the
// effect is immediate (the gateway reads the same database). PostgreSQL needs no channel: commands
// open the database themselves, beside any number of servers.

/** Where the channel's socket is: DATA_DIR/run/admin.sock (a Unix socket path is at most 107 bytes). */
export function adminSocketPath(dataDir: string): string {
  return join(dataDir, 'run', 'admin.sock');
}

const commandRequestSchema = z.object({
  argv: z.array(z.string().max(10_000)).max(200),
  cwd: z.string().max(4096),
});

/** What the server answers for one command: what it printed, and its exit status. */
export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Opens the channel for a running server; `close` stops it and removes the socket. */
export async function openAdminChannel(options: {
  dataDir: string;
  services: ServiceContext;
}): Promise<{ socketPath: string; close(): Promise<void> }> {
  const socketPath = adminSocketPath(options.dataDir);
  const directory = join(options.dataDir, 'run');
  // 0700: the socket is reachable by this OS user only (connecting needs search rights on the folder).
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  chmodSync(directory, 0o700);
  // A socket left by a server that was killed: this process holds the data folder's lock now.
  rmSync(socketPath, { force: true });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 1024 * 1024) {
        res.writeHead(413).end();
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      void answer(req.method, req.url, Buffer.concat(chunks).toString('utf8')).then(({ status, body }) => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
    });
  });
  const answer = async (method: string | undefined, url: string | undefined, body: string) => {
    if (method !== 'POST' || url !== '/commands') {
      return { status: 404, body: { error: 'POST /commands only' } };
    }
    let parsed: z.infer<typeof commandRequestSchema>;
    try {
      parsed = commandRequestSchema.parse(JSON.parse(body));
    } catch {
      return { status: 400, body: { error: 'expected {"argv": [...], "cwd": "..."}' } };
    }
    const result = await runForwardedCommand(parsed.argv, parsed.cwd, options.services);
    return { status: 200, body: result };
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(socketPath, 0o600);
  return {
    socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Runs one back-office command line inside this process, with what it printed. */
export async function runForwardedCommand(
  argv: string[],
  cwd: string,
  services: ServiceContext,
): Promise<CommandResult> {
  const cli = bufferedCliContext({ cwd, services });
  const name = argv.find((arg) => !arg.startsWith('-'));
  if (name !== undefined && !BACK_OFFICE_COMMAND_NAMES.has(name)) {
    cli.fail(`a running server does not run \`bytegate ${name}\``);
    return { stdout: cli.stdout(), stderr: cli.stderr(), exitCode: cli.exitCode };
  }
  const exitCode = await runCommandLine(buildProgram(cli), argv, cli);
  return { stdout: cli.stdout(), stderr: cli.stderr(), exitCode };
}

/**
 * Sends a command line to the server listening at `socketPath`. Null when no server listens there (no
 * socket, or a stale one): the caller then opens the database itself.
 */
export function sendToRunningServer(
  socketPath: string,
  argv: string[],
  cwd: string,
  timeoutMs = 120_000,
): Promise<CommandResult | null> {
  return new Promise((resolve, reject) => {
    const req = request(
      { socketPath, path: '/commands', method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) {
            reject(new Error(`the running server refused the command (${res.statusCode}): ${text}`));
            return;
          }
          resolve(JSON.parse(text) as CommandResult);
        });
      },
    );
    req.setTimeout(timeoutMs, () =>
      req.destroy(new Error(`the running server did not answer within ${timeoutMs / 1000} s`)),
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') {
        resolve(null);
      } else {
        reject(error);
      }
    });
    req.end(JSON.stringify({ argv, cwd }));
  });
}
