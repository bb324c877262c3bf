import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, freeRange } from '@bytegate/gateway/testing';

const bin = fileURLToPath(new URL('../../bin/bytegate.mjs', import.meta.url));

/** A `bytegate` process a test started, with what it printed and the ports it was given. */
export interface BytegateProcess {
  name: string;
  child: ChildProcess;
  output(): string;
  ports: { http: number; gateway: number; metrics: number };
}

/**
 * Runs `bytegate <args>` as its own process with `env` over the test's environment, its output kept;
 * answers the child and its output once it exits.
 */
export function runBytegate(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; output(): string; exited: Promise<number | null> } {
  let log = '';
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    log += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    log += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => log, exited };
}

/**
 * Starts `bytegate start` on free loopback ports (HTTP, the gateway's three kinds, a metrics port of its
 * own unless `env` names one) with `env`
 * (DATABASE_URL, ROLES, ...); resolves once it says it runs, throws with its output if it does not.
 */
export async function startBytegate(name: string, env: Record<string, string>): Promise<BytegateProcess> {
  const ports = {
    http: await freePort(),
    gateway: await freePort(),
    metrics: env.METRICS_PORT ? Number(env.METRICS_PORT) : await freePort(),
  };
  const sticky = await freeRange(2);
  const started = runBytegate(['start'], {
    PORT: String(ports.http),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${ports.http}`,
    GATEWAY_HTTP_PORT: String(ports.gateway),
    GATEWAY_SOCKS_PORT: String(await freePort()),
    GATEWAY_STICKY_PORTS: `${sticky.first}-${sticky.last}`,
    METRICS_PORT: String(ports.metrics),
    LOG_LEVEL: 'info',
    ...env,
  });
  // Generous: on a loaded machine the embedded database alone took over a minute to start.
  const deadline = Date.now() + 180_000;
  while (!started.output().includes('Bytegate is running')) {
    if (started.child.exitCode !== null || Date.now() > deadline) {
      started.child.kill('SIGKILL');
      throw new Error(`${name} did not start:\n${started.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { name, child: started.child, output: started.output, ports };
}
