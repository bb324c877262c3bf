import type { Config } from '../../config.ts';
import { agentCommandLine } from './agent-command.ts';
import type { RunningAgentHub } from './run-agent-hub.ts';

/** The start banner's lines of the agent hub: where agents connect, the fingerprint, the command. */
export function agentHubBannerLine(config: Config, running: RunningAgentHub): string {
  const { certificate, port, isSelfSigned } = running;
  const command = agentCommandLine({
    hubHost: config.gateway.host,
    port,
    token: 'TOKEN',
    pin: isSelfSigned ? certificate.fingerprint : null,
  });
  const kind = isSelfSigned
    ? `self-signed${certificate.isNew ? ', made now' : ''} in ${config.dataDir}`
    : 'GATEWAY_AGENT_TLS_CERT';
  return [
    `  Agent hub: port ${port}, certificate ${kind}, SHA-256 ${certificate.fingerprint}\n`,
    `  Run an agent: ${command}   (a token: bytegate agents token --partner EMAIL)\n`,
  ].join('');
}
