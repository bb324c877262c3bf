// Child processes of the bench: starting them (with a raised descriptor limit, each in its own process
// group), reading what they print, their RSS and CPU, stopping them, installing the peers.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from '@bytegate/gateway/testing';

const children = new Set<ChildProcess>();

/** Ends a child's whole process group (squid and dante fork helpers), by the id we started. */
export function stop(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (!child?.pid) {
    return;
  }
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
  if (signal === 'SIGKILL') {
    children.delete(child);
  }
}

export function stopAll(): void {
  for (const child of [...children]) {
    stop(child);
  }
}
process.once('exit', stopAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    stopAll();
    process.exit(130);
  });
}

/** Waits for a child to exit (after a SIGTERM), killing it after `ms`. */
export function stopGracefully(child: ChildProcess, ms = 10_000): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    const timer = setTimeout(() => stop(child), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      children.delete(child);
      resolve();
    });
    stop(child, 'SIGTERM');
  });
}

const WANTED_FDS = 65_536;
// Raises the soft descriptor limit as far as we may (to WANTED_FDS, else to the hard limit), then runs
// the command in the same process (exec keeps the pid, so RSS and CPU are read from the right one).
const RAISE_FDS = `ulimit -n ${WANTED_FDS} 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null`;

/** The descriptor limit children get after RAISE_FDS. */
export function childFdLimit(): number {
  const result = spawnSync('sh', ['-c', `${RAISE_FDS}; ulimit -n`], { encoding: 'utf8' });
  const text = result.stdout.trim();
  return text === 'unlimited' ? WANTED_FDS : Number(text) || 1024;
}

/** This process's own soft descriptor limit. */
export function ownFdLimit(): number {
  const limits = readFileSync('/proc/self/limits', 'utf8');
  const soft = /Max open files\s+(\S+)/.exec(limits)?.[1];
  return soft === 'unlimited' ? WANTED_FDS : Number(soft) || 1024;
}

function spawnWithFds(
  command: string,
  args: string[],
  cwd: string | undefined,
  stdout: 'pipe' | 'ignore',
  env?: NodeJS.ProcessEnv,
) {
  const child = spawn('sh', ['-c', `${RAISE_FDS}; exec "$@"`, 'sh', command, ...args], {
    cwd,
    ...(env ? { env } : {}),
    stdio: ['ignore', stdout, 'pipe'],
    detached: true,
  });
  children.add(child);
  return child;
}

/** Spawns a child that prints one JSON line when ready; answers the child and that line. */
export async function spawnReady<T>(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ child: ChildProcess; ready: T }> {
  const child = spawnWithFds(command, args, cwd, 'pipe');
  let output = '';
  let errors = '';
  child.stderr?.on('data', (chunk) => {
    errors = `${errors}${chunk}`.slice(-4000);
  });
  const ready = await new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop(child);
      reject(new Error(`${command} ${args.join(' ')} was not ready within 60 s:\n${errors}`));
    }, 60_000);
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const newline = output.indexOf('\n');
      if (newline !== -1) {
        clearTimeout(timer);
        resolve(JSON.parse(output.slice(0, newline)) as T);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited (${code}):\n${errors}`));
    });
  });
  return { child, ready };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(port, '127.0.0.1', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** Starts a program that listens on a port and waits until the port accepts connections. */
export async function spawnListening(
  command: string,
  args: string[],
  port: number,
  options: { cwd?: string; env?: NodeJS.ProcessEnv; withinMs?: number } = {},
): Promise<ChildProcess> {
  const child = spawnWithFds(command, args, options.cwd, 'ignore', options.env);
  let errors = '';
  child.stderr?.on('data', (chunk) => {
    errors = `${errors}${chunk}`.slice(-4000);
  });
  const withinMs = options.withinMs ?? 20_000;
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`${command} exited (${child.exitCode}): ${errors.trim().slice(-300)}`);
    }
    if (await accepts(port)) {
      return child;
    }
    if (Date.now() > deadline) {
      stop(child);
      throw new Error(
        `${command} did not listen on ${port} within ${withinMs / 1000} s: ${errors.trim().slice(-300)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function rssKb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN);
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/**
 * CPU milliseconds (user + system, with reaped children) used so far by every process of a child's
 * process group: dante serves from forked processes.
 */
export function groupCpuMs(pid: number | undefined): number {
  if (!pid) {
    return Number.NaN;
  }
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the ")" that ends the command name: state is field 3; pgrp 5; utime..cstime 14..17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pid) {
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    }
  }
  return (ticks * 1000) / CLOCK_TICKS;
}

export { freePort };

export function hasCommand(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
}

/** Installs a Debian package when its command is missing and we may (root); answers why not otherwise. */
export function ensureDebianPackage(command: string, pkg: string): string | null {
  if (hasCommand(command)) {
    return null;
  }
  if (process.getuid?.() !== 0) {
    return `${command} is not installed (apt-get install -y ${pkg} needs root)`;
  }
  process.stderr.write(`installing ${pkg} (apt-get install -y ${pkg})...\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let result = spawnSync('apt-get', ['install', '-y', pkg], { env, encoding: 'utf8', timeout: 180_000 });
  if (!hasCommand(command)) {
    // A fresh container has no package lists yet.
    spawnSync('apt-get', ['update'], { env, encoding: 'utf8', timeout: 180_000 });
    result = spawnSync('apt-get', ['install', '-y', pkg], { env, encoding: 'utf8', timeout: 180_000 });
  }
  return hasCommand(command)
    ? null
    : `apt-get install -y ${pkg} failed: ${(result.stderr ?? '').trim().split('\n').pop()}`;
}

export function commandVersion(command: string, args: string[], pattern: RegExp): string {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return pattern.exec(`${result.stdout}${result.stderr}`)?.[1] ?? '?';
}

/** Squid as a plain forward proxy on 127.0.0.1: no auth, no cache, no access log, CONNECT to any port. */
export async function startSquid(dir: string, fds: number): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const home = join(dir, 'squid');
  mkdirSync(home, { recursive: true });
  // Squid drops to the `proxy` user for its log and pid files.
  chmodSync(home, 0o777);
  const conf = join(home, 'squid.conf');
  writeFileSync(
    conf,
    [
      `http_port 127.0.0.1:${port}`,
      'acl localhost src 127.0.0.1/32',
      'http_access allow localhost',
      'http_access deny all',
      'cache deny all',
      'cache_mem 8 MB',
      'access_log none',
      `cache_log ${home}/cache.log`,
      `pid_filename ${home}/squid.pid`,
      `coredump_dir ${home}`,
      'pinger_enable off',
      'shutdown_lifetime 0 seconds',
      `max_filedescriptors ${fds}`,
      'client_persistent_connections on',
      'server_persistent_connections on',
      '',
    ].join('\n'),
  );
  return { child: await spawnListening('squid', ['-N', '-f', conf], port), port };
}

/** Dante as an unauthenticated SOCKS5 server on 127.0.0.1. */
export async function startDante(dir: string): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const conf = join(dir, 'danted.conf');
  writeFileSync(
    conf,
    [
      `logoutput: ${join(dir, 'danted.log')}`,
      `internal: 127.0.0.1 port = ${port}`,
      'external: 127.0.0.1',
      'clientmethod: none',
      'socksmethod: none',
      'user.privileged: root',
      'user.unprivileged: nobody',
      'client pass { from: 0.0.0.0/0 to: 0.0.0.0/0 }',
      'socks pass { from: 0.0.0.0/0 to: 0.0.0.0/0 }',
      '',
    ].join('\n'),
  );
  return { child: await spawnListening('danted', ['-f', conf], port), port };
}

/** proxy-chain from the npm registry into a cache folder of the bench (never into the project). */
export function ensureProxyChain(cacheDir: string): string | null {
  const installed = () => existsSync(join(cacheDir, 'node_modules', 'proxy-chain', 'package.json'));
  if (installed()) {
    return null;
  }
  process.stderr.write(`installing proxy-chain into ${cacheDir}...\n`);
  mkdirSync(cacheDir, { recursive: true });
  // A package.json of its own, so npm never walks up to the project's workspaces.
  if (!existsSync(join(cacheDir, 'package.json'))) {
    writeFileSync(join(cacheDir, 'package.json'), '{ "name": "bytegate-bench-cache", "private": true }\n');
  }
  const result = spawnSync(
    'npm',
    ['install', '--prefix', cacheDir, '--no-audit', '--no-fund', '--no-package-lock', 'proxy-chain'],
    { cwd: cacheDir, encoding: 'utf8', timeout: 180_000 },
  );
  return installed()
    ? null
    : `npm install proxy-chain failed: ${(result.stderr ?? '').trim().split('\n').pop()}`;
}

export function proxyChainVersion(cacheDir: string): string {
  try {
    const pkg = JSON.parse(
      readFileSync(join(cacheDir, 'node_modules', 'proxy-chain', 'package.json'), 'utf8'),
    ) as { version?: string };
    return pkg.version ?? '?';
  } catch {
    return '?';
  }
}

/** tinyproxy on 127.0.0.1: no auth, no Via header, CONNECT to any port, a thread per client. */
export async function startTinyproxy(dir: string): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const conf = join(dir, 'tinyproxy.conf');
  writeFileSync(
    conf,
    [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Timeout 600',
      'LogLevel Critical',
      `LogFile "${join(dir, 'tinyproxy.log')}"`,
      'MaxClients 12000',
      'Allow 127.0.0.1',
      'DisableViaHeader Yes',
      '',
    ].join('\n'),
  );
  return { child: await spawnListening('tinyproxy', ['-d', '-c', conf], port), port };
}

/** An error's first line, for a table cell. */
export const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
