import type { AddressInfo, Socket } from 'node:net';
import { createServer, type Server, type TLSSocket } from 'node:tls';
import { ALPN } from 'bytegate-agent/protocol';
import type { ExitIndex } from '../routing/exit-index.ts';
import type { PoolType } from '../store.ts';
import { AgentLink } from './agent-link.ts';
import type { AgentDirectory } from './directory.ts';

export interface AgentHubSettings {
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** PEM certificate and key the hub presents (agents pin its fingerprint when it is self-signed). */
  cert: string;
  key: string;
  directory: AgentDirectory;
  /** A pool's index of exits (the store's): an agent is an exit of its pool while it is available. */
  exitIndex(poolType: PoolType): Pick<ExitIndex, 'add' | 'remove'>;
  /** Agents' TLS handshakes not finished yet, at most (an unauthenticated flood holds no more). */
  maxHandshakes?: number;
  /**
   * Every hub of the fleet (this one included), told to each agent in its welcome: agents keep a
   * connection to every gateway, so any gateway can carry a tunnel through any agent with no relay
   * between gateways. None: this hub alone.
   */
  fleetHubs?: () => Array<{ url: string; fingerprint: string | null }>;
}

/** What the console shows of one connected agent. */
export interface ConnectedAgent {
  agentId: string;
  address: string;
  poolType: PoolType;
  country: string;
  city: string | undefined;
  name: string | undefined;
  isAvailable: boolean;
  unavailableReason: string | undefined;
  tunnels: number;
}

/**
 * The exit agents' hub: a TLS listener (ALPN h2) that agents dial out to. Each connection is an
 * AgentLink; a welcomed, available agent is an exit of its pool in the index (targeting, sticky sessions
 * and health treat it as any exit), and leaves it the moment it is gone or pauses: its tunnels end with
 * its connection, and a sticky session on it moves to another exit that matches.
 */
export class AgentHub {
  private readonly server: Server;
  private readonly links = new Map<string, AgentLink>();
  private handshakes = 0;
  /** Connections whose TLS handshake is under way, by the peer's address and port. */
  private readonly handshaking = new Map<string, () => void>();

  constructor(private readonly settings: AgentHubSettings) {
    this.server = createServer({
      cert: settings.cert,
      key: settings.key,
      ALPNProtocols: [ALPN],
      // An agent that never finishes its handshake does not hold a socket for long.
      handshakeTimeout: 10_000,
    });
    this.server.on('secureConnection', (socket: TLSSocket) => {
      this.handshaking.get(connectionKey(socket))?.();
      this.onAgent(socket);
    });
    this.server.on('tlsClientError', () => {});
    this.server.on('connection', (socket: Socket) => {
      // The raw socket never emits 'secure' (its TLSSocket does, and that one reaches us only as
      // 'secureConnection'): the handshake is matched to it by the peer's address and port. Counting
      // until 'close' instead held every connected agent as a handshake, and refused all after 1,000.
      const key = connectionKey(socket);
      let counted = true;
      const done = () => {
        if (counted) {
          counted = false;
          this.handshakes -= 1;
          this.handshaking.delete(key);
        }
      };
      this.handshakes += 1;
      this.handshaking.set(key, done);
      socket.once('close', done);
      if (this.handshakes > (settings.maxHandshakes ?? 1_000)) {
        socket.destroy();
      }
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.settings.port, this.settings.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    return (this.server.address() as AddressInfo).port;
  }

  /** Agents connected and welcomed now. */
  connected(): ConnectedAgent[] {
    return [...this.links.values()].map((link) => ({
      agentId: link.agentId,
      address: link.address,
      poolType: link.admission?.poolType ?? 'residential',
      country: link.exit?.country ?? '',
      city: link.exit?.city,
      name: link.name,
      isAvailable: link.isAvailable,
      unavailableReason: link.unavailableReason,
      tunnels: link.tunnels,
    }));
  }

  /** The live link of an agent, if it is connected here. */
  link(agentId: string): AgentLink | undefined {
    return this.links.get(agentId);
  }

  /** Ends an agent's connection here (revoked, banned): its tunnels end and it leaves the index. */
  disconnect(agentId: string): boolean {
    const link = this.links.get(agentId);
    link?.end();
    return link !== undefined;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const link of [...this.links.values()]) {
      link.end();
    }
    await closed;
  }

  private onAgent(socket: TLSSocket): void {
    if (socket.alpnProtocol !== ALPN) {
      socket.destroy();
      return;
    }
    socket.setKeepAlive(true, 30_000);
    socket.on('error', () => {});
    const link = new AgentLink(socket, this.settings.directory, {
      ready: (ready) => this.onReady(ready),
      availability: (changed) => this.place(changed),
      gone: (gone) => this.onGone(gone),
      fleetHubs: () => this.settings.fleetHubs?.() ?? [],
    });
    void link.start();
  }

  private onReady(link: AgentLink): void {
    // The same agent connecting again (its old connection not yet noticed dead): the new one wins.
    const previous = this.links.get(link.agentId);
    this.links.set(link.agentId, link);
    previous?.end();
    this.settings.directory.connected({ agentId: link.agentId, address: link.address });
    this.place(link);
  }

  /** Puts an agent's exit in its pool's index while it takes tunnels, and out of it otherwise. */
  private place(link: AgentLink): void {
    const exit = link.exit;
    if (!exit || this.links.get(link.agentId) !== link) {
      return;
    }
    const index = this.settings.exitIndex(exit.poolType);
    if (link.isAvailable) {
      index.add(exit);
    } else {
      index.remove(exit.id);
    }
  }

  private onGone(link: AgentLink): void {
    if (!link.exit || this.links.get(link.agentId) !== link) {
      return;
    }
    this.links.delete(link.agentId);
    this.settings.exitIndex(link.exit.poolType).remove(link.exit.id);
    this.settings.directory.disconnected({ agentId: link.agentId, address: link.address });
  }
}

function connectionKey(socket: Socket): string {
  return `${socket.remoteAddress}|${socket.remotePort}`;
}
