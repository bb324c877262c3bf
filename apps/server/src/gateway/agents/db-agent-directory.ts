import type { Database } from '@bytegate/db';
import {
  deleteAgentPresence,
  getAgentByTokenHash,
  pruneAgentPresence,
  recordAgentAdmission,
  upsertAgentPresence,
} from '@bytegate/db/queries';
import {
  type AgentAdmission,
  type AgentDirectory,
  type AgentPresence,
  AgentRefused,
} from '@bytegate/gateway';
import type { FastifyBaseLogger } from 'fastify';
import { locateAgentAddress } from '../../geoip/locate-agent-address.ts';
import { hashAgentToken } from '../../services/agents/agent-tokens.ts';

/** How often this gateway says again which agents are connected to it (online = seen within 60 s). */
export const PRESENCE_HEARTBEAT_MS = 20_000;
/** Presence rows older than this are deleted by any gateway's heartbeat (a crashed gateway's). */
const PRESENCE_PRUNE_AFTER_MS = 10 * 60_000;

/** An agent quarantined by staff: not let in, not told so for good (it tries again, with backoff). */
export class AgentQuarantined extends Error {}

type Log = Pick<FastifyBaseLogger, 'warn' | 'info'>;

/**
 * The exit agents' directory over the database: an agent is let in by the SHA-256 of its token, located
 * by the address it came from (GeoIP), and given the pool its operator set or its network's; its
 * comings and goings are this gateway's rows of `agent_presence`, written off the tunnels' path (a
 * failure is logged and the heartbeat writes again), and refreshed every PRESENCE_HEARTBEAT_MS so that
 * a gateway that died stops counting its agents online within a minute.
 */
export class DbAgentDirectory implements AgentDirectory {
  /** Agents connected here now: address and since when. */
  private readonly here = new Map<string, { address: string; connectedAt: Date }>();
  /** Departures whose row could not be deleted: tried again at the next heartbeat. */
  private readonly leftUnwritten = new Map<string, string>();
  private writes: Promise<void> = Promise.resolve();
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Database,
    /** This gateway process, as its presence rows name it. */
    readonly gatewayId: string,
    private readonly log: Log,
  ) {}

  /** Agents connected to this gateway now. */
  connectedIds(): string[] {
    return [...this.here.keys()];
  }

  async admit(token: string, address: string): Promise<AgentAdmission> {
    const agent = await getAgentByTokenHash(this.db, { tokenHash: hashAgentToken(token) });
    if (!agent) {
      throw new AgentRefused('unknown-token', 'This agent token is not known to the hub');
    }
    if (agent.revokedAt) {
      throw new AgentRefused('revoked', 'This agent token was revoked: ask for a new one');
    }
    if (agent.status === 'banned') {
      throw new AgentRefused('banned', 'This agent is banned by the operator');
    }
    if (agent.status === 'quarantined') {
      throw new AgentQuarantined(`agent ${agent.id} is quarantined`);
    }
    const located = await locateAgentAddress(address);
    if (!located) {
      // Agents are exits by their place: one with none could only be picked by untargeted requests,
      // which would then go out from who knows where. It is refused, and told why.
      throw new AgentRefused(
        'unlocated',
        `The hub's GeoIP database does not locate ${address}, and agents are exits by their location: an unlocated agent is not let in`,
      );
    }
    const poolType = agent.poolOverride ?? located.pool;
    await recordAgentAdmission(this.db, {
      agentId: agent.id,
      address,
      country: located.country,
      state: located.state,
      city: located.city,
      zip: located.zip,
      asn: located.asn,
      asnName: located.asnName,
      poolType,
      at: new Date(),
    });
    return {
      agentId: agent.id,
      poolType,
      location: {
        country: located.country,
        state: located.state,
        city: located.city,
        zip: located.zip,
        asn: located.asn,
      },
      settings: {
        maxTunnels: agent.maxTunnels,
        gbPerDay: agent.gbPerDay === null ? null : Number(agent.gbPerDay),
        hours: agent.hours,
        plainHttp: agent.plainHttp,
      },
    };
  }

  connected({ agentId, address }: AgentPresence): void {
    const connectedAt = new Date();
    this.here.set(agentId, { address, connectedAt });
    this.leftUnwritten.delete(agentId);
    this.write(`presence of agent ${agentId}`, () =>
      upsertAgentPresence(this.db, {
        gatewayId: this.gatewayId,
        seenAt: connectedAt,
        rows: [{ agentId, address, connectedAt }],
      }),
    );
  }

  disconnected({ agentId, address }: AgentPresence): void {
    if (this.here.get(agentId)?.address === address) {
      this.here.delete(agentId);
    }
    this.write(`departure of agent ${agentId}`, async () => {
      try {
        await deleteAgentPresence(this.db, { gatewayId: this.gatewayId, agentId, address });
      } catch (error) {
        if (!this.here.has(agentId)) {
          this.leftUnwritten.set(agentId, address);
        }
        throw error;
      }
    });
  }

  /** Starts the heartbeat (one beat now). */
  start(): void {
    this.heartbeat ??= setInterval(() => this.beat(), PRESENCE_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Stops the heartbeat and waits for the writes under way (close the hub first: its departures are among them). */
  async stop(): Promise<void> {
    if (this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = null;
    }
    await this.writes;
  }

  /** Says again which agents are here (writing rows a failed write left out), retries departures, prunes. */
  beat(): Promise<void> {
    const now = new Date();
    const rows = [...this.here].map(([agentId, { address, connectedAt }]) => ({
      agentId,
      address,
      connectedAt,
    }));
    const departures = [...this.leftUnwritten];
    this.leftUnwritten.clear();
    this.write('presence heartbeat', async () => {
      await upsertAgentPresence(this.db, { gatewayId: this.gatewayId, seenAt: now, rows });
      for (const [index, [agentId, address]] of departures.entries()) {
        try {
          if (!this.here.has(agentId)) {
            await deleteAgentPresence(this.db, { gatewayId: this.gatewayId, agentId, address });
          }
        } catch (error) {
          for (const [left, at] of departures.slice(index)) {
            if (!this.here.has(left)) {
              this.leftUnwritten.set(left, at);
            }
          }
          throw error;
        }
      }
      await pruneAgentPresence(this.db, { before: new Date(now.getTime() - PRESENCE_PRUNE_AFTER_MS) });
    });
    return this.writes;
  }

  /** Writes one after another (a departure never lands before its arrival), never failing the caller. */
  private write(what: string, work: () => Promise<void>): void {
    this.writes = this.writes.then(work).catch((error: unknown) => {
      this.log.warn(
        { err: error },
        `agent directory: writing the ${what} failed; the heartbeat writes again`,
      );
    });
  }
}
