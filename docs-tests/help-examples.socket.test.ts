import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createGateway,
  type Exit,
  type Gateway,
  InMemoryGatewayStore,
  type PlanAccess,
} from '@bytegate/gateway';
import { curl, freeRange } from '@bytegate/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitAt, helpExits } from './testing/help-fixtures.ts';

// The Help Center's curl examples, run as written against a real gateway: LOGIN, PASSWORD and GATEWAY
// are a real plan's, the ports are the gateway's (823 HTTP, 824 SOCKS5, 10000+ sticky), and the target
// is a local origin that answers with the address the request came from, so each example's exit is
// checked against what its article says it does.

const helpDir = fileURLToPath(new URL('../apps/web/src/content/help', import.meta.url));

const plan: PlanAccess = {
  planId: 'plan-help',
  login: 'bghelp01',
  password: 'HelpPass123',
  poolType: 'residential',
  threadLimit: 20,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};

/** What the article promises for the targeting in an example's login; every targeted example needs one. */
const promises: Record<string, (exit: Exit) => boolean> = {
  'cr.us;state.texas': (exit) => exit.country === 'US' && exit.state === 'texas',
  'cr.us;city.austin': (exit) => exit.country === 'US' && exit.city === 'austin',
  'cr.de;asn.3320': (exit) => exit.country === 'DE' && exit.asn === 3320,
  'nocr.ru,by': (exit) => exit.country !== 'RU' && exit.country !== 'BY',
  'sessid.checkout7;sessttl.10': () => true,
};

interface Example {
  article: string;
  command: string;
  comment: string;
}

/** Every `curl` line of the articles' shell blocks, with its trailing comment. */
function examples(): Example[] {
  const found: Example[] = [];
  const files = readdirSync(helpDir, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.md'),
  );
  for (const file of files) {
    const blocks = readFileSync(join(helpDir, file), 'utf8').matchAll(/```sh\n([\s\S]*?)```/g);
    for (const [, block = ''] of blocks) {
      for (const line of block.split('\n')) {
        const [, command = '', comment = ''] = line.match(/^(curl .*?)\s*(?:#\s*(.*))?$/) ?? [];
        if (command) {
          found.push({ article: relative(helpDir, join(helpDir, file)), command, comment });
        }
      }
    }
  }
  return found;
}

/** The words of a command line as a POSIX shell splits them (single quotes only, as the articles use). */
function words(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '');
}

let origin: Server;
let originUrl: string;
let gateway: Gateway;
let ports: Record<string, number>;

beforeAll(async () => {
  origin = createServer((request, response) => response.end(request.socket.remoteAddress));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  const originPort = (origin.address() as AddressInfo).port;
  originUrl = `http://127.0.0.1:${originPort}/`;
  const store = new InMemoryGatewayStore().addPlan(plan);
  for (const exit of helpExits) {
    store.addExit(exit);
  }
  const sticky = await freeRange(3);
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    stickyPorts: sticky,
    allowPrivateTargets: true,
    openPorts: new Set([originPort]),
  });
  const listening = await gateway.listen();
  ports = {
    '823': listening.httpPort,
    '824': listening.socksPort ?? 0,
    '10000': sticky.first,
    '10001': sticky.first + 1,
    '10002': sticky.first + 2,
  };
});

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => origin?.close(resolve));
});

/** Runs an example with the real plan, gateway and origin in place of the article's placeholders. */
async function runExample(example: Example): Promise<{ status: number | undefined; exit: Exit | undefined }> {
  const args = words(example.command).slice(1);
  const proxyAt = args.indexOf('-x') + 1;
  expect(proxyAt, `${example.command}: curl -x PROXY`).toBeGreaterThan(0);
  // The placeholders replaced as text, so the login reaches curl exactly as the article writes it.
  const proxy = (args[proxyAt] ?? '')
    .replace('LOGIN', plan.login)
    .replace('PASSWORD', plan.password)
    .replace(/@GATEWAY:(\d+)$/, (_, port: string) => {
      expect(ports[port], `${example.command}: a gateway port`).toBeDefined();
      return `@127.0.0.1:${ports[port]}`;
    });
  args[proxyAt] = proxy;
  const target = args.findIndex((arg) => arg.startsWith('https://'));
  expect(target, `${example.command}: an https:// target`).toBeGreaterThan(0);
  args[target] = originUrl;
  // The article's target is HTTPS, which an HTTP proxy carries in a CONNECT tunnel: so does this run.
  const tunnel = proxy.startsWith('http://') ? ['--proxytunnel'] : [];
  const answer = await curl([...tunnel, ...args]);
  return { status: answer.status, exit: exitAt(answer.body) };
}

describe("the Help Center's curl examples", () => {
  const all = examples();

  it('are found in the articles', () => {
    expect(all.length).toBeGreaterThanOrEqual(12);
  });

  it('each work as written, and leave from the exit their article promises', async () => {
    let previous: Exit | undefined;
    for (const example of all) {
      const { status, exit } = await runExample(example);
      const where = `${example.article}: ${example.command}`;
      expect(status, where).toBe(200);
      expect(exit, where).toBeDefined();
      const targeting = decodeURIComponent(example.command.match(/LOGIN__([^:]+):/)?.[1] ?? '');
      if (targeting) {
        const promise = promises[targeting];
        expect(promise, `${where}: say here what this targeting promises`).toBeDefined();
        expect(promise?.(exit as Exit), `${where} left from ${exit?.id}`).toBe(true);
      }
      if (/same IP/i.test(example.comment)) {
        expect(exit?.id, `${where}: the same IP as the line before`).toBe(previous?.id);
      }
      previous = exit;
    }
  });

  it('keep a session ID on one IP, as Connection Types says', async () => {
    const example = all.find((candidate) => candidate.command.includes('sessid.'));
    expect(example).toBeDefined();
    const first = await runExample(example as Example);
    for (let i = 0; i < 5; i++) {
      expect((await runExample(example as Example)).exit?.id).toBe(first.exit?.id);
    }
  });

  it('rotate on the rotating port: repeated requests leave from more than one IP', async () => {
    const example = all.find((candidate) =>
      /^curl -x http:\/\/LOGIN:PASSWORD@GATEWAY:823 /.test(candidate.command),
    );
    expect(example).toBeDefined();
    const seen = new Set<string | undefined>();
    for (let i = 0; i < 12; i++) {
      seen.add((await runExample(example as Example)).exit?.id);
    }
    expect(seen.size).toBeGreaterThan(1);
  });
});
