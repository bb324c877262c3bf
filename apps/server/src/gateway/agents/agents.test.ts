import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listAuditEntries } from '@bytegate/db/queries';
import { curl } from '@bytegate/gateway/testing';
import { type AgentProcess, startAgentProcess } from '@bytegate/gateway/testing/agent-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bufferedCliContext } from '../../cli/context.ts';
import { buildProgram, runCommandLine } from '../../cli/program.ts';
import { useGeoipDatabases } from '../../geoip/geoip-databases.ts';
import { adjustBalance } from '../../services/billing/adjust-balance.ts';
import { writeTestGeoipDatabases } from '../../testing/geoip-test-databases.ts';
import { createUserViaApi, queryRows, startTestServer, type TestServer } from '../../testing/test-server.ts';
import { type RunningGateway, runGateway } from '../run-gateway.ts';

// An exit agent as a partner runs it, against the server's hub on the database: a real `bytegate-agent`
// process with a token made by `bytegate agents token`, connecting from 127.0.0.21, which the GeoIP
// databases this test writes place in Austin on a home network. The origin stands on 127.0.0.20, the one
// private address the agent is told it may reach.

const AGENT_ADDRESS = '127.0.0.21';
const ORIGIN_HOST = '127.0.0.20';
const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

let dir: string;
let server: TestServer;
let gateway: RunningGateway;
let origin: Server;
let originPort: number;
const agents: AgentProcess[] = [];

/** One `bytegate` command line run in-process, as the running server runs a forwarded one. */
async function bytegate(...argv: string[]) {
  const cli = bufferedCliContext({
    cwd: dir,
    services: { db: server.database.db, config: server.config },
  });
  const status = await runCommandLine(buildProgram(cli), argv, cli);
  return { status, stdout: cli.stdout(), stderr: cli.stderr() };
}

function runAgent(args: string[]): AgentProcess {
  const agent = startAgentProcess(['--bind', AGENT_ADDRESS, '--allow-private', `${ORIGIN_HOST}/32`, ...args]);
  agents.push(agent);
  return agent;
}

/** The agents' lines of `bytegate agents list` (console.table's rows). */
async function listed(agentId: string): Promise<string> {
  const { stdout } = await bytegate('agents', 'list');
  return stdout.split('\n').find((line) => line.includes(agentId)) ?? '';
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bytegate-agents-'));
  const geoip = await writeTestGeoipDatabases(dir, [
    {
      network: AGENT_ADDRESS,
      country: 'US',
      state: 'Texas',
      city: 'Austin',
      zip: '78701',
      asn: 64_512,
      asnName: 'Example Home Broadband',
    },
  ]);
  useGeoipDatabases(geoip);
  origin = createServer((request, response) => response.end(`from ${request.socket.remoteAddress}`));
  await new Promise<void>((resolve) => origin.listen(0, ORIGIN_HOST, resolve));
  originPort = (origin.address() as AddressInfo).port;

  server = await startTestServer(kind);
  server.config.dataDir = dir;
  server.config.gateway.allowPrivateTargets = true;
  gateway = await runGateway(server.config, server.database.db, console, {
    httpPort: 0,
    socksPort: null,
    stickyPorts: null,
    host: '127.0.0.1',
    openPorts: new Set([originPort]),
    changes: server.gatewayChanges,
    agentPort: 0,
  });
  const hubPort = gateway.agentHub?.port ?? 0;
  // As GATEWAY_AGENT_PORT would say: the command `agents token` prints names this port.
  server.config.gateway.agentHub = { port: hubPort, certPath: undefined, keyPath: undefined };
  server.config.gateway.host = '127.0.0.1';
}, 60_000);

afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.kill()));
  await gateway?.stop();
  await server?.close();
  await new Promise((resolve) => origin?.close(resolve));
  // The API suite shares one module graph: later files get the packaged databases back.
  useGeoipDatabases({ cityDb: null, asnDb: null });
  await rm(dir, { recursive: true, force: true });
});

describe(`exit agents on the server (${kind})`, () => {
  let agentId = '';
  let agent: AgentProcess;

  it('`agents token` refuses an unknown account and a staff one, and prints a token and the exact command', async () => {
    const unknown = await bytegate('agents', 'token', '--partner', 'nobody@example.com');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No account has the email nobody@example.com');

    const partner = await createUserViaApi(server);
    const made = await bytegate('agents', 'token', '--partner', partner.email, '--name', 'living room');
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    agentId = /Agent ([0-9a-f-]{36}) \(living room\)/.exec(made.stdout)?.[1] ?? '';
    const token = /Token \(shown only now; only its hash is kept\): (bga_[\w-]{43})/.exec(made.stdout)?.[1];
    expect(token).toBeDefined();
    const pin = gateway.agentHub?.certificate.fingerprint;
    expect(made.stdout).toContain(
      `npx bytegate-agent --hub https://127.0.0.1:${gateway.agentHub?.port} --token ${token} --insecure-pin ${pin}`,
    );
    // Only the hash is kept; the account is a partner now, and the audit log says who made it.
    const [row] = await queryRows<{ token_hash: string; role: string }>(
      server,
      `select a.token_hash, u.role from agents a join users u on u.id = a.partner_user_id where a.id = '${agentId}'`,
    );
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.token_hash).not.toContain(token?.slice(4, 20));
    expect(row?.role).toBe('partner');
    const audit = await listAuditEntries(server.database.db, { action: 'agent.token', limit: 5, offset: 0 });
    expect(audit.rows[0]).toMatchObject({ actorEmail: 'cli', targetId: agentId });

    const staff = await createUserViaApi(server);
    await queryRows(server, `update users set role = 'support' where email = '${staff.email}'`);
    const refused = await bytegate('agents', 'token', '--partner', staff.email);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('is a staff account (support): agents belong to partner accounts');

    agent = runAgent([
      '--hub',
      `https://127.0.0.1:${gateway.agentHub?.port}`,
      '--token',
      token ?? '',
      '--insecure-pin',
      pin ?? '',
    ]);
  });

  it('is online in `agents list` within 2 s of its welcome, located, from its own address', async () => {
    const welcome = await agent.whenOnline();
    const welcomedAt = Date.now();
    expect(welcome).toMatch(
      new RegExp(
        `online as agent ${agentId} on https://127\\.0\\.0\\.1:\\d+/: ${AGENT_ADDRESS.replaceAll('.', '\\.')} \\(Austin, Texas, US\\), residential pool`,
      ),
    );
    let line = '';
    while (!line.includes('online') || line.includes('offline')) {
      expect(Date.now() - welcomedAt).toBeLessThan(2_000);
      // A pause between looks: on the embedded database a look never leaves the microtask queue, and a
      // loop of them would starve the hub's socket in this same process.
      await new Promise((resolve) => setTimeout(resolve, 20));
      line = await listed(agentId);
    }
    console.info(`agent online in \`agents list\` ${Date.now() - welcomedAt} ms after its welcome`);
    for (const shown of [
      'living room',
      'online',
      AGENT_ADDRESS,
      'Austin, Texas, US',
      'AS64512',
      'residential',
    ]) {
      expect(line).toContain(shown);
    }
    const presence = await queryRows<{ address: string }>(
      server,
      `select address from agent_presence where agent_id = '${agentId}'`,
    );
    expect(presence).toEqual([{ address: AGENT_ADDRESS }]);
  });

  it("carries a customer's request with matching targeting to the origin, from the agent's address", async () => {
    // The partners' terms first: every byte below is earned at this rate.
    expect((await bytegate('agents', 'rate', '--pool', 'residential', '--per-gb', '12.5x')).status).toBe(1);
    const rate = await bytegate(
      'agents',
      'rate',
      '--pool',
      'residential',
      '--per-gb',
      '0.35',
      '--reason',
      'launch',
    );
    expect(rate.stdout).toContain('Partners now earn $0.35 per GB in the residential pool.');
    expect((await bytegate('agents', 'rates')).stdout).toContain('$0.35');
    const audit = await listAuditEntries(server.database.db, { action: 'partner.rate', limit: 5, offset: 0 });
    expect(audit.rows[0]).toMatchObject({ actorEmail: 'cli', targetId: 'residential', reason: 'launch' });
    const customer = await createUserViaApi(server);
    await adjustBalance(
      { db: server.database.db, config: server.config },
      { email: customer.email, amountCents: 50_00, reason: 'test credit' },
    );
    const bought = await server.request<{ plan: { login: string; password: string } }>(
      'POST',
      '/api/subuser/create',
      { token: customer.token, body: { pool_type: 'residential', default_pool_parameters: { quantity: 5 } } },
    );
    expect(bought.status).toBe(201);
    const { login, password } = bought.body.plan;
    const through = (targeting: string, tunnel: boolean) =>
      curl([
        '-x',
        `http://${login}__${targeting}:${password}@127.0.0.1:${gateway.httpPort}`,
        ...(tunnel ? ['-p'] : []),
        `http://${ORIGIN_HOST}:${originPort}/`,
      ]);
    for (const tunnel of [true, false]) {
      const answer = await through('cr.us;state.texas;city.austin', tunnel);
      expect(answer.body).toBe(`from ${AGENT_ADDRESS}`);
      expect(answer.status).toBe(200);
    }

    // The partner earns from exactly the bytes the customer's plan carried (its only traffic; the plan
    // is billed them twice over for targeting, the partner is paid them once), at the rate in force:
    // bytes × 35 cents per GB, kept exact.
    const earned = async () => {
      const [row] = await queryRows<{ used: string; carried: string | null; earned: string | null }>(
        server,
        `select (select sum(b.bytes) from usage_buckets b join plans p on p.id = b.plan_id
                  where p.login = '${login}')::text as used,
           d.carried_bytes::text as carried, d.earned_byte_cents::text as earned
         from agents a left join agent_usage_daily d on d.agent_id = a.id
         where a.id = '${agentId}'`,
      );
      return row;
    };
    await expect
      .poll(async () => Number((await earned())?.carried ?? 0), { timeout: 10_000 })
      .toBeGreaterThan(0);
    await expect
      .poll(
        async () => {
          const row = await earned();
          return row?.carried === row?.used;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    const row = await earned();
    expect(BigInt(row?.earned ?? '0')).toBe(BigInt(row?.carried ?? '0') * 35n);
    const earnings = await bytegate('agents', 'earnings', '--days', '1');
    expect(earnings.stdout).toContain('living room');
    expect(earnings.stdout).toContain(String(row?.carried));

    // Targeting it does not match finds no exit at all (checked last: the refused request's own bytes
    // are the plan's, carried by no agent).
    expect((await through('cr.de', true)).status).not.toBe(200);
  });

  it('refuses an unknown token: the agent says why and stops with code 2', async () => {
    const stranger = runAgent([
      '--hub',
      `https://127.0.0.1:${gateway.agentHub?.port}`,
      '--token',
      'bga_not-a-token-this-hub-made',
      '--insecure-pin',
      gateway.agentHub?.certificate.fingerprint ?? '',
    ]);
    await stranger.waitFor(/refused this agent \(unknown-token\): This agent token is not known to the hub/);
    expect(await stranger.exited).toBe(2);
  });

  it('`agents quarantine` disconnects it and holds it out while it keeps trying; `release` lets it back', async () => {
    const welcomes = () => agent.lines.filter((line) => line.includes('online as agent')).length;
    expect(welcomes()).toBe(1);
    expect((await bytegate('agents', 'quarantine', agentId)).stdout).toContain('is quarantined.');
    await expect.poll(() => gateway.agentHub?.hub.link(agentId), { timeout: 3_000 }).toBeUndefined();
    // It tries again (and is not let in) rather than stopping: a quarantine is not for good.
    await agent.waitFor(/offline .*connecting again/, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(welcomes()).toBe(1);
    expect(agent.child.exitCode).toBeNull();
    expect(await listed(agentId)).toContain('quarantined');
    expect((await bytegate('agents', 'release', agentId)).stdout).toContain('is released.');
    await expect.poll(welcomes, { timeout: 20_000 }).toBe(2);
    await expect.poll(() => gateway.agentHub?.hub.link(agentId)).toBeDefined();
  });

  it('`agents revoke` disconnects it within seconds; it is refused as revoked and stops with code 2', async () => {
    const revoked = await bytegate('agents', 'revoke', agentId, '--reason', 'machine sold');
    expect(revoked.stdout).toContain(`Agent ${agentId} (living room) is revoked.`);
    const started = Date.now();
    await agent.waitFor(/refused this agent \(revoked\): This agent token was revoked/, 10_000);
    expect(await agent.exited).toBe(2);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(gateway.agentHub?.hub.link(agentId)).toBeUndefined();
    const line = await listed(agentId);
    expect(line).toContain('revoked');
    expect(line).toContain('offline');
    expect((await bytegate('agents', 'revoke', agentId)).stdout).toContain('is revoked already.');
    expect((await bytegate('agents', 'ban', 'not-an-id')).stderr).toContain('"not-an-id" is not an agent id');
    const audit = await listAuditEntries(server.database.db, { action: 'agent.revoke', limit: 5, offset: 0 });
    expect(audit.rows[0]).toMatchObject({ targetId: agentId, reason: 'machine sold' });
  });
});
