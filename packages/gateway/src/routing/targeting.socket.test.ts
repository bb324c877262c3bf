import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../gateway.ts';
import { type Exit, InMemoryGatewayStore, type PlanAccess, type SavedTargeting } from '../store.ts';
import { connectIpv4, curl, greeting, rawSocks, run, userPass } from '../testing/sockets.ts';

// A plan's saved Proxy Settings as the default targeting of every connection, under the login's
// parameters, on exits bound to 127.0.0.x so the origin sees which one was used.

const plan: PlanAccess = {
  planId: 'plan-targeting',
  login: 'bgtargeting1',
  password: 'Secret123',
  poolType: 'residential',
  threadLimit: 20,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};
const noSettings: SavedTargeting = {
  countries: [],
  excludeCountries: [],
  states: [],
  cities: [],
  zips: [],
  asns: [],
  excludeAsns: [],
  anonymous: true,
  rotationMinutes: 30,
};
const exit = (id: string, address: string, fields: Partial<Exit>): Exit =>
  ({ id, kind: 'direct', poolType: 'residential', localAddress: address, isRisky: false, ...fields }) as Exit;

let origin: Server;
let originPort: number;
let gateway: Gateway;
let proxyPort: number;
let socksPort: number;
let clock = Date.now();

beforeAll(async () => {
  origin = createServer((request, response) => {
    response.end(`${request.socket.remoteAddress}`);
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  const store = new InMemoryGatewayStore()
    .addPlan(plan)
    .addExit(exit('de-berlin', '127.0.0.2', { country: 'DE', state: 'berlin', city: 'berlin', asn: 3320 }))
    .addExit(exit('de-hamburg', '127.0.0.3', { country: 'DE', state: 'hamburg', city: 'hamburg', asn: 8881 }))
    .addExit(
      exit('fr-paris', '127.0.0.4', { country: 'FR', state: 'ile-de-france', city: 'paris', asn: 3215 }),
    )
    .addExit(
      exit('de-munich-risky', '127.0.0.5', {
        country: 'DE',
        state: 'bavaria',
        city: 'munich',
        isRisky: true,
      }),
    );
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([originPort]),
    now: () => clock,
  });
  const ports = await gateway.listen();
  proxyPort = ports.httpPort;
  socksPort = ports.socksPort as number;
});

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => origin?.close(resolve));
});

/** Saves settings the way the server's store refresh does: a new plan state the next connection reads. */
function save(settings: Partial<SavedTargeting>): void {
  plan.saved = { ...noSettings, ...settings };
}

async function exitsSeen(username: string, times: number): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let i = 0; i < times; i++) {
    const { body, status } = await curl([
      '-x',
      `http://${username}:${plan.password}@127.0.0.1:${proxyPort}`,
      `http://127.0.0.1:${originPort}/`,
    ]);
    expect(status, body).toBe(200);
    seen.add(body);
  }
  return seen;
}

describe('saved targeting in the gateway', () => {
  it('sends every connection through an exit of the saved country; a login parameter overrides it', async () => {
    save({ countries: ['DE'] });
    expect(await exitsSeen(plan.login, 12)).toEqual(new Set(['127.0.0.2', '127.0.0.3']));
    expect(await exitsSeen(`${plan.login}__cr.fr`, 3)).toEqual(new Set(['127.0.0.4']));
  });

  it('never uses an excluded ASN or country, whatever the login asks', async () => {
    save({ countries: ['DE'], excludeAsns: [3320] });
    expect(await exitsSeen(plan.login, 6)).toEqual(new Set(['127.0.0.3']));
    save({ excludeCountries: ['DE'] });
    expect(await exitsSeen(plan.login, 4)).toEqual(new Set(['127.0.0.4']));
    const refused = await curl([
      '-x',
      `http://${plan.login}__cr.de:${plan.password}@127.0.0.1:${proxyPort}`,
      `http://127.0.0.1:${originPort}/`,
    ]);
    expect(refused.status).toBe(400);
  });

  it('skips risky exits unless the saved anonymous filter is off', async () => {
    save({ countries: ['DE'], states: ['bavaria'] });
    const filtered = await curl([
      '-x',
      `http://${plan.login}:${plan.password}@127.0.0.1:${proxyPort}`,
      `http://127.0.0.1:${originPort}/`,
    ]);
    expect(filtered.status).toBe(400);
    save({ countries: ['DE'], states: ['bavaria'], anonymous: false });
    expect(await exitsSeen(plan.login, 2)).toEqual(new Set(['127.0.0.5']));
  });

  it('bills a saved state filter at 2x, and answers an impossible combination with NO_RAY, counted as an error', async () => {
    save({ countries: ['DE'], states: ['hamburg'] });
    gateway.meter.drain();
    const carried = await curl([
      '-x',
      `http://${plan.login}:${plan.password}@127.0.0.1:${proxyPort}`,
      `http://127.0.0.1:${originPort}/`,
    ]);
    expect(carried.body).toBe('127.0.0.3');
    let usage = gateway.meter.drain().get(plan.planId);
    expect(usage?.bytes).toBe(carried.sentBytes + carried.receivedBytes);
    expect(usage?.extraBytes).toBe(usage?.bytes);

    save({ countries: ['DE'], cities: ['paris'] });
    const { stdout } = await run('curl', [
      '-s',
      '-i',
      '-x',
      `http://${plan.login}:${plan.password}@127.0.0.1:${proxyPort}`,
      `http://127.0.0.1:${originPort}/`,
    ]);
    expect(stdout.split('\r\n')[0]).toBe('HTTP/1.1 400 NO_RAY');
    usage = gateway.meter.drain().get(plan.planId);
    expect(usage?.errorsByCode).toEqual({ NO_RAY: 1 });
  });

  it('keeps a session on its exit for the saved rotation interval, and picks again after it', async () => {
    save({ countries: ['DE'], rotationMinutes: 10 });
    const sessions = Array.from({ length: 10 }, (_, i) => `${plan.login}__sessid.window${i}`);
    const first: string[] = [];
    for (const username of sessions) {
      first.push([...(await exitsSeen(username, 1))][0] ?? '');
    }
    clock += 9 * 60_000;
    for (const [i, username] of sessions.entries()) {
      expect(await exitsSeen(username, 2)).toEqual(new Set([first[i]]));
    }
    // Past the window, each session picks again among DE's two exits: some land elsewhere.
    clock += 2 * 60_000;
    const after: string[] = [];
    for (const username of sessions) {
      after.push([...(await exitsSeen(username, 1))][0] ?? '');
    }
    expect(after.some((address, i) => address !== first[i])).toBe(true);
    expect(after.every((address) => address === '127.0.0.2' || address === '127.0.0.3')).toBe(true);
  });
});

describe('percent-encoded credentials, and refusals counted after a good password', () => {
  /** curl with the credentials sent exactly as given (`--proxy-user` is not URL-decoded by curl). */
  const asSent = (credentials: string, ...args: string[]) =>
    run('curl', [
      '-s',
      '-i',
      '-x',
      `http://127.0.0.1:${proxyPort}`,
      '--proxy-user',
      credentials,
      ...args,
    ]).then(
      (result) => result.stdout,
      (error: { stdout?: string }) => error.stdout ?? '',
    );
  const target = () => `http://127.0.0.1:${originPort}/`;

  it('decodes a username and password sent percent-encoded, as some clients pass a proxy URL on', async () => {
    save({});
    // curl decodes the proxy URL's own escapes: the gateway gets `;` either way.
    expect(await exitsSeen(`${plan.login}__cr.de%3Bcity.berlin`, 1)).toEqual(new Set(['127.0.0.2']));
    const raw = await asSent(`${plan.login}__cr.de%3Bcity.berlin:Secret%31%323`, target());
    expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(raw.endsWith('127.0.0.2')).toBe(true);
    // SOCKS5 (RFC 1929) carries the same text, decoded the same way.
    const socks = await rawSocks(
      socksPort,
      [greeting(0x02), userPass(`${plan.login}__cr.fr%3banon.1`, plan.password), connectIpv4(originPort)],
      500,
    );
    expect([...socks.subarray(0, 4)]).toEqual([0x05, 0x02, 0x01, 0x00]);
    expect(socks[5]).toBe(0x00);
  });

  it('refuses a malformed escape with INVALID_VALUE, over HTTP and SOCKS5 alike', async () => {
    for (const credentials of [`${plan.login}__cr.de%zz:${plan.password}`, `${plan.login}:Secret12%3`]) {
      const answer = await asSent(credentials, target());
      expect(answer.split('\r\n')[0], credentials).toBe('HTTP/1.1 400 INVALID_VALUE');
      expect(answer).toMatch(/malformed percent-escape/);
    }
    const socks = await rawSocks(socksPort, [
      greeting(0x02),
      userPass(`${plan.login}__cr.%4`, plan.password),
    ]);
    expect([...socks]).toEqual([0x05, 0x02, 0x01, 0x01]);
  });

  it("counts a refusal after a good password in the plan's errors by code; a wrong password counts nothing", async () => {
    save({});
    gateway.meter.drain();
    const conflict = await asSent(`${plan.login}__cr.de;nocr.fr:${plan.password}`, target());
    expect(conflict.split('\r\n')[0]).toBe('HTTP/1.1 400 PARAM_CONFLICT');
    const unknown = await asSent(`${plan.login}__country.de:${plan.password}`, '-p', target());
    expect(unknown.split('\r\n')[0]).toBe('HTTP/1.1 400 UNKNOWN_PARAM');
    await rawSocks(socksPort, [greeting(0x02), userPass(`${plan.login}__city.paris`, plan.password)]);
    let usage = gateway.meter.drain().get(plan.planId);
    expect(usage?.errorsByCode).toEqual({ PARAM_CONFLICT: 1, UNKNOWN_PARAM: 1, PARAM_REQUIRES_COUNTRY: 1 });
    expect(usage?.requests).toBe(3);
    // Refused before any byte was relayed: nothing is billed.
    expect(usage?.bytes ?? 0).toBe(0);
    // With a wrong password the grammar is not read at all: NO_USER, and no plan's statistics move.
    const stranger = await asSent(`${plan.login}__cr.de;nocr.fr:Wrong123`, target());
    expect(stranger.split('\r\n')[0]).toBe('HTTP/1.1 407 NO_USER');
    usage = gateway.meter.drain().get(plan.planId);
    expect(usage?.requests ?? 0).toBe(0);
  });
});
