import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createGateway, type Gateway, InMemoryGatewayStore, type PlanAccess } from '@bytegate/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitAt, helpExits, tlsPath, tlsServerOptions } from './testing/help-fixtures.ts';

// The Python requests tutorial, run as written with Debian's python3, requests and PySocks (.ci/run
// installs python3-requests and python3-socks): the HTTP port for both schemes, and the SOCKS5 setup it
// calls safe, against a local origin that redirects to an http:// address and records whether the proxy
// password reached it. The warning itself is checked too: through SOCKS5 alone, requests hands the
// redirected request's Proxy-Authorization to the site.

const PYTHON = '/usr/bin/python3';
const hasModules = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import requests, socks'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasModules && process.env.CI === 'true') {
  throw new Error(
    `${PYTHON} with requests and PySocks is needed (apt-get install python3-requests python3-socks)`,
  );
}
if (!hasModules) {
  console.warn(
    `SKIPPED the Python tutorial: no requests or PySocks for ${PYTHON} (apt-get install python3-requests python3-socks)`,
  );
}

const article = fileURLToPath(new URL('../apps/web/src/content/help/tutorials/python.md', import.meta.url));
const blocks = [...readFileSync(article, 'utf8').matchAll(/```python\n([\s\S]*?)```/g)].map(
  (match) => match[1] ?? '',
);

const plan: PlanAccess = {
  planId: 'plan-python-tutorial',
  login: 'bgpytutor01',
  password: 'PyTutorPass123',
  poolType: 'residential',
  threadLimit: 20,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};

let gateway: Gateway;
let ports: { http: number; socks: number };
let tlsOrigin: Server;
let tlsPort: number;
let redirecting: Server;
let redirectPort: number;
/** The Proxy-Authorization each request to the redirecting origin carried ('' for none). */
const seenProxyAuthorization: string[] = [];

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  tlsOrigin = createTlsServer(tlsServerOptions(), (request, response) =>
    response.end(request.socket.remoteAddress),
  );
  tlsPort = await listen(tlsOrigin);
  // httpbin.org/redirect/1 answers 302 to /get, on the same http:// site.
  redirecting = createServer((request, response) => {
    seenProxyAuthorization.push(request.headers['proxy-authorization'] ?? '');
    if (request.url === '/redirect/1') {
      response.writeHead(302, { location: `http://127.0.0.1:${redirectPort}/get` }).end();
      return;
    }
    response.end('ok');
  });
  redirectPort = await listen(redirecting);
  const store = new InMemoryGatewayStore().addPlan(plan);
  for (const exit of helpExits) {
    store.addExit(exit);
  }
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([tlsPort, redirectPort]),
  });
  const listening = await gateway.listen();
  ports = { http: listening.httpPort, socks: listening.socksPort ?? 0 };
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all(
    [tlsOrigin, redirecting].map((server) => new Promise((resolve) => server?.close(resolve))),
  );
});

/** The snippet with the real plan, gateway ports and local origins in place of the article's. */
function localize(code: string): string {
  return code
    .replaceAll('LOGIN', plan.login)
    .replaceAll('PASSWORD', plan.password)
    .replaceAll('GATEWAY:823', `127.0.0.1:${ports.http}`)
    .replaceAll('GATEWAY:824', `127.0.0.1:${ports.socks}`)
    .replaceAll('https://api.ipify.org', `https://127.0.0.1:${tlsPort}/`)
    .replaceAll('http://httpbin.org', `http://127.0.0.1:${redirectPort}`);
}

/** Trust the test certificate; and no NO_PROXY, which would make requests skip the proxy for 127.0.0.1. */
function runPython(script: string): Promise<string> {
  const { NO_PROXY: _upper, no_proxy: _lower, ...env } = process.env;
  return new Promise((resolve, reject) => {
    execFile(
      PYTHON,
      ['-c', script],
      { env: { ...env, REQUESTS_CA_BUNDLE: tlsPath('localhost.crt') }, timeout: 20_000 },
      (error, stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve(stdout)),
    );
  });
}

describe.skipIf(!hasModules)('the Python requests tutorial', () => {
  it('has the two examples this test runs', () => {
    expect(blocks).toHaveLength(2);
  });

  it('prints the exit IP through the HTTP port, over a verified HTTPS tunnel', async () => {
    expect(exitAt(await runPython(localize(blocks[0] ?? '')))).toBeDefined();
  });

  it('follows a redirect to an http:// address with the safe SOCKS5 setup, and the site never sees the password', async () => {
    seenProxyAuthorization.length = 0;
    expect((await runPython(localize(blocks[1] ?? ''))).trim()).toBe('200');
    expect(seenProxyAuthorization).toEqual(['', '']);
  });

  it('is right to warn: through SOCKS5 alone, the redirected request hands the site the proxy password', async () => {
    seenProxyAuthorization.length = 0;
    const socksOnly = (blocks[1] ?? '').replace(
      '"http": "http://LOGIN:PASSWORD@GATEWAY:823"',
      '"http": "socks5h://LOGIN:PASSWORD@GATEWAY:824"',
    );
    expect(socksOnly).not.toBe(blocks[1]);
    expect((await runPython(localize(socksOnly))).trim()).toBe('200');
    const leaked = `Basic ${Buffer.from(`${plan.login}:${plan.password}`).toString('base64')}`;
    expect(seenProxyAuthorization).toEqual(['', leaked]);
  });
});
