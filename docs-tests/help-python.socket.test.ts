import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  createGateway,
  type Exit,
  type Gateway,
  InMemoryGatewayStore,
  type PlanAccess,
} from '@bytegate/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tlsPath, tlsServerOptions } from './testing/help-fixtures.ts';

// Getting Started's Python example, run as written with Debian's python3 and requests (.ci/run installs
// python3-requests): a real plan through the gateway's CONNECT tunnel to a local HTTPS origin whose test
// certificate requests is told to trust, so TLS is verified as it would be against api.ipify.org.

const PYTHON = '/usr/bin/python3';
const hasRequests = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import requests'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasRequests && process.env.CI === 'true') {
  throw new Error(`${PYTHON} with requests is needed (apt-get install python3-requests)`);
}
if (!hasRequests) {
  console.warn(
    `SKIPPED the Python help example: no requests for ${PYTHON} (apt-get install python3-requests)`,
  );
}

const article = fileURLToPath(new URL('../apps/web/src/content/help/getting-started.md', import.meta.url));

const plan: PlanAccess = {
  planId: 'plan-python',
  login: 'bgpython01',
  password: 'PythonPass123',
  poolType: 'residential',
  threadLimit: 20,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};
const exit = {
  id: 'us-austin',
  kind: 'direct',
  poolType: 'residential',
  isRisky: false,
  localAddress: '127.0.0.2',
  country: 'US',
} as Exit;

let origin: Server;
let originPort: number;
let gateway: Gateway;
let proxyPort: number;

beforeAll(async () => {
  origin = createServer(tlsServerOptions(), (request, response) =>
    response.end(request.socket.remoteAddress),
  );
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  gateway = createGateway(new InMemoryGatewayStore().addPlan(plan).addExit(exit), {
    host: '127.0.0.1',
    httpPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([originPort]),
  });
  proxyPort = (await gateway.listen()).httpPort;
});

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => origin?.close(resolve));
});

/** Trust the test certificate; and no NO_PROXY, which would make requests skip the proxy for 127.0.0.1. */
function pythonEnv(): NodeJS.ProcessEnv {
  const { NO_PROXY: _upper, no_proxy: _lower, ...env } = process.env;
  return { ...env, REQUESTS_CA_BUNDLE: tlsPath('localhost.crt') };
}

describe.skipIf(!hasRequests)("Getting Started's Python example", () => {
  it('prints the exit IP, through a verified HTTPS tunnel', async () => {
    const code = readFileSync(article, 'utf8').match(/```python\n([\s\S]*?)```/)?.[1];
    expect(code).toContain('import requests');
    const script = (code ?? '')
      .replace('LOGIN', plan.login)
      .replace('PASSWORD', plan.password)
      .replace('GATEWAY:823', `127.0.0.1:${proxyPort}`)
      .replace('https://api.ipify.org', `https://127.0.0.1:${originPort}/`);
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(PYTHON, ['-c', script], { env: pythonEnv(), timeout: 20_000 }, (error, out, stderr) =>
        error ? reject(new Error(stderr || error.message)) : resolve(out),
      );
    });
    expect(stdout.trim()).toBe('127.0.0.2');
  });
});
