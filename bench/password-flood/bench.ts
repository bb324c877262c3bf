// bench/password-flood: what password guessing on the API does to the gateway in the same process.
// `npm run bench:password-flood` (PostgreSQL when TEST_DATABASE_URL is set, else in-memory PGlite).
//
// argon2 runs on libuv's thread pool, which the gateway's DNS lookups share. The figure is the median
// time from sending `CONNECT localhost:<port>` to reading the gateway's 200 (a lookup on the pool,
// a connection, an answer), measured quiet, then while 16 clients guess passwords through the API
// (the bounded queue: two checks at a time), then while 16 loops run argon2 checks with no bound (what
// the API did before the queue). Each figure is printed as a ratio to the quiet one of the same run.

import { connect, createServer } from 'node:net';
import { createExits } from '@bytegate/db/queries';
import { verify } from '@node-rs/argon2';
import { runGateway } from '../../apps/server/src/gateway/run-gateway.ts';
import { hashPassword } from '../../apps/server/src/services/accounts/passwords.ts';
import { adjustBalance } from '../../apps/server/src/services/billing/adjust-balance.ts';
import { createUserViaApi, startTestServer } from '../../apps/server/src/testing/test-server.ts';

const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const GUESSERS = 16;
const log = (text: string) => process.stderr.write(`${text}\n`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

const server = await startTestServer(kind, {
  rateLimits: {
    passwordChecksPerUser: { max: 1_000_000, windowMs: 60_000 },
    passwordChecksPerAddress: { max: 1_000_000, windowMs: 60_000 },
  },
});
server.config.gateway.allowPrivateTargets = true;
const target = createServer((socket) => socket.on('error', () => socket.destroy()));
await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
const targetPort = (target.address() as { port: number }).port;
await createExits(server.database.db, {
  exits: [
    { name: 'bench', kind: 'direct', poolType: 'datacenter', localAddress: '127.0.0.1', country: 'US' },
  ],
});
const gateway = await runGateway(server.config, server.database.db, console, {
  httpPort: 0,
  socksPort: null,
  stickyPorts: null,
  host: '127.0.0.1',
  openPorts: new Set([targetPort]),
});
const buyer = await createUserViaApi(server);
await adjustBalance(
  { db: server.database.db, config: server.config },
  { email: buyer.email, amountCents: 10_00, reason: 'bench' },
);
const bought = await server.request<{ plan: { login: string; password: string } }>(
  'POST',
  '/api/subuser/create',
  {
    token: buyer.token,
    body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } },
  },
);
const { login, password } = bought.body.plan;
const auth = Buffer.from(`${login}:${password}`).toString('base64');
await new Promise((resolve) => setTimeout(resolve, 1500)); // the gateway's refresh picks the plan up

/** One CONNECT through the gateway to localhost (resolved on the thread pool): ms to its 200. */
function connectOnce(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(gateway.httpPort, '127.0.0.1', () => {
      socket.write(
        `CONNECT localhost:${targetPort} HTTP/1.1\r\nHost: localhost:${targetPort}\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`,
      );
    });
    socket.once('data', (chunk) => {
      const elapsed = performance.now() - started;
      socket.destroy();
      if (!chunk.toString('latin1').startsWith('HTTP/1.1 200')) {
        reject(new Error(`gateway answered ${chunk.toString('latin1').split('\r\n')[0]}`));
      }
      resolve(elapsed);
    });
    socket.once('error', reject);
  });
}

async function measure(): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    times.push(await connectOnce());
  }
  return times;
}

/** Runs `load` in GUESSERS loops while measuring; answers the CONNECT times and the loops' results. */
async function under(
  load: () => Promise<string>,
): Promise<{ times: number[]; outcomes: Map<string, number> }> {
  let running = true;
  const outcomes = new Map<string, number>();
  const loops = Array.from({ length: GUESSERS }, async () => {
    while (running) {
      const outcome = await load();
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const times = await measure();
  running = false;
  await Promise.all(loops);
  return { times, outcomes };
}

const victim = await createUserViaApi(server);
let guess = 0;
const guessThroughApi = async () => {
  guess += 1;
  const answer = await server.request('PUT', '/api/user-settings/password', {
    token: victim.token,
    body: { currentPassword: `guess ${guess}`, newPassword: 'a new password' },
  });
  return String(answer.status);
};
const someHash = await hashPassword('the real password');
const unboundedArgon2 = async () => {
  guess += 1;
  return String(await verify(someHash, `guess ${guess}`));
};

log(`bench/password-flood on ${kind}: ${SAMPLES} CONNECTs per phase, ${GUESSERS} guessing clients`);
await measure(); // warm-up
const quiet = await measure();
const api = await under(guessThroughApi);
const unbounded = await under(unboundedArgon2);

const row = (name: string, times: number[], extra = '') => {
  const p50 = median(times);
  const ratio = p50 / median(quiet);
  log(
    `${name.padEnd(44)} p50 ${p50.toFixed(2).padStart(7)} ms  p99 ${percentile(times, 0.99).toFixed(2).padStart(8)} ms  ${ratio.toFixed(2).padStart(6)}x quiet${extra}`,
  );
  return ratio;
};
row('quiet', quiet);
const apiRatio = row(
  'API password guessing (bounded queue)',
  api.times,
  `  answers: ${[...api.outcomes].map(([status, count]) => `${status} x${count}`).join(', ')}`,
);
const unboundedRatio = row('unbounded argon2 (the API before the queue)', unbounded.times);
log(`${apiRatio <= 2 ? 'PASS' : 'MISS'} CONNECT p50 under API password guessing within 2x quiet`);
log(`(unbounded argon2 is ${(unboundedRatio / apiRatio).toFixed(1)}x the bounded figure)`);

await gateway.stop();
await server.close();
target.close();
