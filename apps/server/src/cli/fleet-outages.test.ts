// Many processes on PostgreSQL and Redis (issue 16), when parts of the fleet go away: a Redis outage
// neither stops traffic nor bills anything twice, GATEWAY_WORKERS runs as several processes under one
// limit, a SIGKILLed gateway's slots come back, and the jobs find another leader.
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_MS } from '../gateway/fleet/fleet-member.ts';
import type { BytegateProcess } from '../testing/bytegate-process.ts';
import { type Fleet, startFleet } from '../testing/fleet-fixture.ts';
import { within } from '../testing/gateway-fixture.ts';
import { forwardGet, openTunnel } from '../testing/proxy-clients.ts';

const MiB = 1024 * 1024;
const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(process.env.TEST_DATABASE_URL && redisUrl)(
  'a fleet of processes on PostgreSQL and Redis: parts going away',
  () => {
    let fleet: Fleet;
    let gateways: [BytegateProcess, BytegateProcess];
    let originPort: number;
    let auth: string;
    const used = () => fleet.used();

    beforeAll(async () => {
      fleet = await startFleet(redisUrl ?? '');
      ({ gateways, originPort } = fleet);
      ({ auth } = fleet.customer);
    }, 180_000);

    afterAll(async () => {
      await fleet?.close();
    });

    it('keeps traffic flowing while Redis is away for 10 s, then shares again; every byte billed once', async () => {
      await fleet.setPlanLeft(1024 * MiB);
      // The fleet's start-up requests stored first, so `before` counts none of them.
      await within(5000, async () => {
        const stored = await used();
        await new Promise((resolve) => setTimeout(resolve, 1500));
        return (await used()) === stored;
      });
      const before = await used();
      let carried = 0;
      fleet.relay.pause();
      fleet.relay.cut();
      // A purchase while Redis is away: the gateways read it from the database, and must give it to
      // the fleet once Redis is back, though no traffic changes the plan's row after it.
      const totalDuringOutage = await fleet.writePlanLeft(2048 * MiB);
      const outageEnds = Date.now() + 10_000;
      let requests = 0;
      while (Date.now() < outageEnds) {
        const answers = await Promise.all(
          gateways.map((gateway) =>
            forwardGet(gateway.ports.gateway, auth, `http://127.0.0.1:${originPort}/?bytes=65536`),
          ),
        );
        for (const answer of answers) {
          expect(answer.status).toBe(200);
          carried += answer.carried;
          requests += 1;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const degraded = await Promise.all(
        gateways.map(async (gateway) => {
          const text = await (await fetch(`http://127.0.0.1:${gateway.ports.metrics}/metrics`)).text();
          return /bytegate_gateway_shared_state_degraded 1/.test(text);
        }),
      );
      expect(degraded).toEqual([true, true]);
      // Still ready ("send me traffic"): a balancer routing on /readyz keeps the degraded fleet in.
      for (const gateway of gateways) {
        const ready = await fetch(`http://127.0.0.1:${gateway.ports.metrics}/readyz`);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toMatchObject({
          ready: true,
          degraded: ['redis'],
          checks: { redis: { ok: false } },
        });
      }
      // Every usage write of the outage's traffic done and read back before Redis returns.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      fleet.relay.resume();
      for (const gateway of gateways) {
        await within(5000, async () => {
          const text = await (await fetch(`http://127.0.0.1:${gateway.ports.metrics}/metrics`)).text();
          return /bytegate_gateway_shared_state_degraded 0/.test(text);
        });
        expect(gateway.output()).toContain('Redis does not answer');
        expect(gateway.output()).toContain('Redis answers again');
      }
      await within(3000, async () => (await fleet.sharedTotal()) === totalDuringOutage);
      // After the outage the shared limits apply again, and what was carried is billed exactly once.
      for (const gateway of gateways) {
        const answer = await forwardGet(
          gateway.ports.gateway,
          auth,
          `http://127.0.0.1:${originPort}/?bytes=1000`,
        );
        expect(answer.status).toBe(200);
        carried += answer.carried;
      }
      await within(10_000, async () => (await used()) - before === carried);
      console.log(`Redis away 10 s: ${requests} requests carried, ${carried} bytes billed exactly`);
    });

    it('runs GATEWAY_WORKERS=2 as two gateway processes on one port, held to the same fleet limit', async () => {
      const workers = await fleet.start('gateway workers', { ROLES: 'gateway', GATEWAY_WORKERS: '2' });
      expect(workers.output()).toContain('in 2 worker processes');
      // Each worker answers health on METRICS_PORT + its number.
      for (const number of [1, 2]) {
        await within(30_000, async () => {
          const alive = await fetch(`http://127.0.0.1:${workers.ports.metrics + number}/readyz`).catch(
            () => null,
          );
          return alive?.status === 200;
        });
      }
      const target = `127.0.0.1:${originPort}`;
      const held: Socket[] = [];
      try {
        await within(3000, async () => {
          const tunnel = await openTunnel(workers.ports.gateway, auth, target);
          tunnel.socket.destroy();
          return tunnel.status === 200;
        });
        await new Promise((resolve) => setTimeout(resolve, 300));
        for (let i = 0; i < 5; i += 1) {
          const tunnel = await openTunnel(workers.ports.gateway, auth, target);
          held.push(tunnel.socket);
          expect(tunnel.status).toBe(200);
        }
        for (const port of [
          workers.ports.gateway,
          workers.ports.gateway,
          (gateways[0] as BytegateProcess).ports.gateway,
        ]) {
          const refused = await openTunnel(port, auth, target);
          held.push(refused.socket);
          expect(refused.status).toBe(407);
        }
      } finally {
        for (const socket of held) {
          socket.destroy();
        }
      }
      // SIGTERM to the primary drains both workers, and it exits 0.
      const exited = new Promise<number | null>((resolve) =>
        workers.child.once('exit', (code) => resolve(code)),
      );
      workers.child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }, 90_000);

    it('frees the slots of a SIGKILLed gateway within the lease time', async () => {
      const [one, two] = gateways as [BytegateProcess, BytegateProcess];
      const target = `127.0.0.1:${originPort}`;
      const held: Socket[] = [];
      await within(3000, async () => {
        // The tunnels of the tests before have closed on both gateways.
        const probe = await Promise.all(
          [one, two].map((gateway) => openTunnel(gateway.ports.gateway, auth, target)),
        );
        for (const tunnel of probe) {
          tunnel.socket.destroy();
        }
        return probe.every((tunnel) => tunnel.status === 200);
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const gateway of [two, two, two, one, one]) {
        const tunnel = await openTunnel(gateway.ports.gateway, auth, target);
        held.push(tunnel.socket);
        expect(tunnel.status).toBe(200);
      }
      two.child.kill('SIGKILL');
      const killedAt = Date.now();
      await within(LEASE_MS + 3000, async () => {
        const tunnel = await openTunnel(one.ports.gateway, auth, target);
        if (tunnel.status === 200) {
          held.push(tunnel.socket);
        } else {
          tunnel.socket.destroy();
        }
        return held.length === 8;
      });
      const took = Date.now() - killedAt;
      console.log(`slots of a SIGKILLed gateway free after ${took} ms (lease ${LEASE_MS} ms)`);
      expect(took).toBeLessThanOrEqual(LEASE_MS + 3000);
      // Still 5: the 6th on the surviving gateway is refused.
      const refused = await openTunnel(one.ports.gateway, auth, target);
      expect(refused.status).toBe(407);
      refused.socket.destroy();
      for (const socket of held) {
        socket.destroy();
      }
    }, 30_000);

    it('hands the jobs to another process when their leader is killed', async () => {
      expect(fleet.jobs.output()).toContain('jobs: this process leads them');
      const standby = await fleet.start('jobs 2', { ROLES: 'jobs' });
      expect(standby.output()).not.toContain('jobs: this process leads them');
      fleet.jobs.child.kill('SIGKILL');
      await within(30_000, async () => standby.output().includes('jobs: this process leads them'));
    }, 60_000);
  },
);
