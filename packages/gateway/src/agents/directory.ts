import type { AgentSettings, RefusalReason } from 'bytegate-agent/protocol';
import type { PoolType } from '../store.ts';

/** An agent the store let in: who it is, where its address is, and what its partner allows. */
export interface AgentAdmission {
  agentId: string;
  poolType: PoolType;
  location: {
    country: string;
    state?: string | null;
    city?: string | null;
    zip?: string | null;
    asn?: number | null;
  };
  /** Flagged by the anonymous filter (known proxy, hosting or abuse ranges), as an exit can be. */
  isRisky?: boolean;
  /** The partner's limits set in the dashboard. */
  settings: AgentSettings;
}

/** Why the store would not let an agent in (its words go to the agent's log). */
export class AgentRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
  }
}

/** What an agent's connection did, as the hub reports it. */
export interface AgentPresence {
  agentId: string;
  /** The address it connected from. */
  address: string;
}

/**
 * The exit agents' side of the store: who may connect, where each one is, and where their comings and
 * goings are recorded. The server implements it over the database (and GeoIP); tests in memory.
 */
export interface AgentDirectory {
  /** Lets an agent in by its token from its address, located; rejects with AgentRefused. */
  admit(token: string, address: string): Promise<AgentAdmission>;
  /** An agent is online through this hub (recorded for the console; never awaited by a tunnel). */
  connected(presence: AgentPresence): void;
  disconnected(presence: AgentPresence): void;
}

/** A directory held in memory: agents by token, for tests and for running the engine alone. */
export class InMemoryAgentDirectory implements AgentDirectory {
  private readonly byToken = new Map<string, AgentAdmission>();
  private readonly revoked = new Set<string>();
  /** Agents online now, by id, with the address each came from. */
  readonly online = new Map<string, string>();
  /** Every connect and disconnect, in order (what the database would record). */
  readonly history: Array<{ event: 'connected' | 'disconnected'; agentId: string; address: string }> = [];

  add(token: string, admission: AgentAdmission): this {
    this.byToken.set(token, admission);
    this.revoked.delete(token);
    return this;
  }

  revoke(token: string): this {
    this.revoked.add(token);
    return this;
  }

  async admit(token: string, _address: string): Promise<AgentAdmission> {
    const admission = this.byToken.get(token);
    if (!admission) {
      throw new AgentRefused('unknown-token', 'This agent token is not known');
    }
    if (this.revoked.has(token)) {
      throw new AgentRefused('revoked', 'This agent token was revoked');
    }
    return admission;
  }

  connected({ agentId, address }: AgentPresence): void {
    this.online.set(agentId, address);
    this.history.push({ event: 'connected', agentId, address });
  }

  disconnected({ agentId, address }: AgentPresence): void {
    if (this.online.get(agentId) === address) {
      this.online.delete(agentId);
    }
    this.history.push({ event: 'disconnected', agentId, address });
  }
}
