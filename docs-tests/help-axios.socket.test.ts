import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createGateway, type Gateway, InMemoryGatewayStore, type PlanAccess } from '@bytegate/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitAt, helpExits, tlsPath, tlsServerOptions } from './testing/help-fixtures.ts';

// The Axios and Node.js tutorial's code, run as written with axios and https-proxy-agent: the article's
// placeholders and sites replaced by a real plan, the gateway, and local origins (one HTTPS, with a test
// certificate Node is told to trust, so TLS is verified as in production) that answer with the address a
// request came from.

const article = fileURLToPath(new URL('../apps/web/src/content/help/tutorials/axios.md', import.meta.url));
// Inside the repository (in its ignored test output), so the snippets import its axios and https-proxy-agent.
const workDir = fileURLToPath(new URL('../.test-results/help-examples', import.meta.url));

const plan: PlanAccess = {
  planId: 'plan-axios',
  login: 'bgaxios01',
  password: 'AxiosPass123',
  poolType: 'residential',
  threadLimit: 20,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};
/** The article's ```js blocks, in order. */
const blocks = [...readFileSync(article, 'utf8').matchAll(/```js\n([\s\S]*?)```/g)].map(
  (match) => match[1] ?? '',
);

let gateway: Gateway;
let proxyPort: number;
let httpsOrigin: Server;
let httpOrigin: Server;
let originPorts: { https: number; http: number };

function answer(request: IncomingMessage, response: ServerResponse): void {
  const address = request.socket.remoteAddress ?? '';
  // api.ipify.org?format=json says {"ip": ...}; httpbin.org/ip says {"origin": ...}.
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify(request.url?.startsWith('/ip') ? { origin: address } : { ip: address }));
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  httpsOrigin = createTlsServer(tlsServerOptions(), answer);
  httpOrigin = createServer(answer);
  originPorts = { https: await listen(httpsOrigin), http: await listen(httpOrigin) };
  const store = new InMemoryGatewayStore().addPlan(plan);
  for (const exit of helpExits) {
    store.addExit(exit);
  }
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([originPorts.https, originPorts.http]),
  });
  proxyPort = (await gateway.listen()).httpPort;
  mkdirSync(workDir, { recursive: true });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all(
    [httpsOrigin, httpOrigin].map((server) => new Promise((resolve) => server?.close(resolve))),
  );
  rmSync(workDir, { recursive: true, force: true });
});

/** The snippet with the real plan, gateway and origins in place of the article's. */
function localize(code: string, credentials = { login: plan.login, password: plan.password }): string {
  return code
    .replaceAll('LOGIN', credentials.login)
    .replaceAll('PASSWORD', credentials.password)
    .replaceAll('GATEWAY:823', `127.0.0.1:${proxyPort}`)
    .replaceAll("'GATEWAY'", "'127.0.0.1'")
    .replaceAll('port: 823', `port: ${proxyPort}`)
    .replaceAll('https://api.ipify.org', `https://127.0.0.1:${originPorts.https}/`)
    .replaceAll('http://httpbin.org/ip', `http://127.0.0.1:${originPorts.http}/ip`);
}

/** Runs a module in Node as a reader would, trusting the test certificate; answers what it printed. */
function runModule(name: string, code: string): Promise<{ stdout: string; stderr: string }> {
  const file = `${workDir}/${name}.mjs`;
  writeFileSync(file, code);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [file],
      { env: { ...process.env, NODE_EXTRA_CA_CERTS: tlsPath('localhost.crt') }, timeout: 20_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${name}: ${stderr || error.message}`)) : resolve({ stdout, stderr }),
    );
  });
}

const imports = "import axios from 'axios';\nimport { HttpsProxyAgent } from 'https-proxy-agent';\n";

describe('the Axios and Node.js tutorial', () => {
  it('has the four examples this test runs', () => {
    expect(blocks).toHaveLength(4);
  });

  it('fetches an HTTPS site through an HttpsProxyAgent tunnel, and prints the exit IP', async () => {
    const { stdout } = await runModule('https-agent', localize(blocks[0] ?? ''));
    expect(exitAt(stdout), stdout).toBeDefined();
  });

  it('reuses one tunnel for the next request through the shared keep-alive agent, as the article says', async () => {
    const again = `\n{\n  const { data } = await axios.get('https://api.ipify.org?format=json', { httpsAgent: agent, proxy: false });\n  console.log(data.ip);\n}\nagent.destroy();\n`;
    const before = gateway.stats().connectionsTotal.connect;
    const { stdout } = await runModule('shared-agent', `${localize(blocks[0] ?? '')}${localize(again)}`);
    const used = stdout.trim().split('\n').map(exitAt);
    expect(used, stdout).toHaveLength(2);
    // One CONNECT for both requests: the same tunnel, so the same exit on the rotating port.
    expect(gateway.stats().connectionsTotal.connect - before).toBe(1);
    expect(used[1]?.id, stdout).toBe(used[0]?.id);
  });

  it("fetches a plain HTTP site with axios's proxy option", async () => {
    const code = `import axios from 'axios';\n${localize(blocks[1] ?? '')}\nconsole.log(data.origin);\n`;
    const { stdout } = await runModule('proxy-option', code);
    expect(exitAt(stdout), stdout).toBeDefined();
  });

  it('targets Texas and keeps one IP for the session through one agent', async () => {
    const request = `\n{\n  const { data } = await axios.get('https://api.ipify.org?format=json', { httpsAgent: agent, proxy: false });\n  console.log(data.ip);\n}\n`;
    const code = `${imports}${localize(blocks[2] ?? '')}${localize(request)}${localize(request)}`;
    const { stdout } = await runModule('targeting', code);
    const used = stdout.trim().split('\n').map(exitAt);
    expect(used).toHaveLength(2);
    expect(used[0]?.state, stdout).toBe('texas');
    expect(used[1]?.id, stdout).toBe(used[0]?.id);
  });

  it("reports a refusal's code from the x-bytegate-error header", async () => {
    const proxyOption = blocks[1]?.match(/proxy: (\{[\s\S]*?\n {2}\}),/)?.[1];
    expect(proxyOption).toBeDefined();
    const code = `import axios from 'axios';\n${(blocks[3] ?? '').replace('{ /* ... */ }', proxyOption ?? '')}`;
    const { stderr } = await runModule(
      'refusal',
      localize(code, { login: plan.login, password: 'not-the-password' }),
    );
    // A wrong password is NO_USER (Troubleshooting lists it).
    expect(stderr.trim()).toBe('refused: NO_USER');
  });
});
