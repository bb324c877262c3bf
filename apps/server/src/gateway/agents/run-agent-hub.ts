import { hostname } from 'node:os';
import type { Database } from '@bytegate/db';
import { listAgentsToDisconnect } from '@bytegate/db/queries';
import { AgentHub, type HubCertificate, loadHubCertificate } from '@bytegate/gateway';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { DbGatewayStore } from '../db-gateway-store.ts';
import { hubCertificateNames } from './agent-command.ts';
import { DbAgentDirectory } from './db-agent-directory.ts';

/** How often the hub asks the database whether an agent connected here was revoked, banned or quarantined. */
export const AGENT_STANDING_CHECK_MS = 1_000;

export interface RunningAgentHub {
  hub: AgentHub;
  directory: DbAgentDirectory;
  port: number;
  certificate: HubCertificate;
  /** Whether the certificate is the self-signed one (agents pin its fingerprint). */
  isSelfSigned: boolean;
  /** One check of the connected agents' standing now (tests; the timer does it every second). */
  checkStanding(): Promise<void>;
  /** Ends every agent's connection (and its tunnels), stops the heartbeat. */
  stop(): Promise<void>;
}

/** The certificate the hub presents: GATEWAY_AGENT_TLS_CERT/_KEY, else the self-signed one in DATA_DIR. */
export function loadAgentHubCertificate(config: Config): Promise<HubCertificate> {
  return loadHubCertificate({
    certPath: config.gateway.agentHub?.certPath,
    keyPath: config.gateway.agentHub?.keyPath,
    dataDir: config.dataDir,
    names: hubCertificateNames(config),
  });
}

/**
 * Runs the exit agents' hub beside the gateway (GATEWAY_AGENT_PORT): agents it admits become exits of
 * their pool in this gateway's store; their presence is written for the console; and once a second the
 * agents connected here are checked against the database, so that one revoked, banned or quarantined
 * (by the console or `bytegate agents`, from any process) is disconnected within a couple of seconds.
 */
export async function runAgentHub(props: {
  config: Config;
  db: Database;
  store: DbGatewayStore;
  log: Pick<FastifyBaseLogger, 'warn' | 'info' | 'error'>;
  host: string;
  port: number;
}): Promise<RunningAgentHub> {
  const { config, db, store, log } = props;
  const certificate = await loadAgentHubCertificate(config);
  const gatewayId = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  const directory = new DbAgentDirectory(db, gatewayId, log);
  const hub = new AgentHub({
    host: props.host,
    port: props.port,
    cert: certificate.cert,
    key: certificate.key,
    directory,
    exitIndex: (poolType) => store.agentExitIndex(poolType),
  });
  const port = await hub.listen();
  directory.start();

  let isChecking = false;
  const checkStanding = async () => {
    const ids = directory.connectedIds();
    if (isChecking || ids.length === 0) {
      return;
    }
    isChecking = true;
    try {
      for (const agent of await listAgentsToDisconnect(db, { agentIds: ids })) {
        if (hub.disconnect(agent.id)) {
          const why = agent.isRevoked ? 'revoked' : agent.status;
          log.info({ agentId: agent.id }, `agent ${agent.id} disconnected: ${why}`);
        }
      }
    } finally {
      isChecking = false;
    }
  };
  const checker = setInterval(() => {
    checkStanding().catch((error: unknown) => log.warn({ err: error }, 'agent standing check failed'));
  }, AGENT_STANDING_CHECK_MS);
  checker.unref();

  return {
    hub,
    directory,
    port,
    certificate,
    isSelfSigned: !config.gateway.agentHub?.certPath,
    checkStanding,
    async stop() {
      clearInterval(checker);
      await hub.close();
      await directory.stop();
    },
  };
}
