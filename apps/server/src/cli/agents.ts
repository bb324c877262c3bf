import { listAgentsForAdmin } from '@bytegate/db/queries';
import { Command } from 'commander';
import { agentCommandLine } from '../gateway/agents/agent-command.ts';
import { loadAgentHubCertificate } from '../gateway/agents/run-agent-hub.ts';
import { changeAgentStatus } from '../services/agents/change-agent-status.ts';
import { createAgentToken } from '../services/agents/create-agent-token.ts';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import { DomainError } from '../services/domain-error.ts';
import { addEarningsCommands } from './agent-earnings.ts';
import type { CliContext } from './context.ts';

const AGENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `bytegate agents`: exit agents from the command line (docs/agents.md), through the same use cases the
 * console will use, so every change is audited (actor `cli`).
 */
export function agentsCommand(cli: CliContext): Command {
  const fail = (message: string) => cli.fail(message);
  /** A use case's refusal (unknown account or agent, a staff account) as the command's own. */
  const refusing = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      if (
        error instanceof DomainError &&
        ['NOT_FOUND', 'VALIDATION_FAILED', 'CONFLICT'].includes(error.code)
      ) {
        fail(error.message);
        return;
      }
      throw error;
    }
  };
  const agents = new Command('agents').description(
    "Manage exit agents: partners' machines that carry traffic from their own address (docs/agents.md)",
  );

  agents
    .command('token')
    .description('Make an agent for a partner and print its token (once) and the command to run it')
    .requiredOption('--partner <email>', "the partner's account (a customer account becomes a partner)")
    .option('--name <name>', 'a name for the machine, shown in lists')
    .option('--reason <text>', 'why, kept in the audit log')
    .action(async (options: { partner: string; name?: string; reason?: string }) => {
      await refusing(async () => {
        const made = await cli.withServices(async (ctx) => {
          const { agent, token } = await createAgentToken(ctx, {
            partnerEmail: options.partner,
            name: options.name,
            reason: options.reason,
            actor: CLI_ACTOR,
          });
          const hub = ctx.config.gateway.agentHub;
          const pin = hub && !hub.certPath ? (await loadAgentHubCertificate(ctx.config)).fingerprint : null;
          return { agent, token, hub, pin, hubHost: ctx.config.gateway.host };
        });
        const command = agentCommandLine({
          hubHost: made.hubHost,
          port: made.hub?.port ?? 'PORT',
          token: made.token,
          pin: made.pin,
        });
        cli.console.log(
          `Agent ${made.agent.id} (${made.agent.name}) made for ${options.partner.trim().toLowerCase()}.`,
        );
        cli.console.log(`Token (shown only now; only its hash is kept): ${made.token}`);
        cli.console.log(`Run it on the partner's machine:\n  ${command}`);
        if (!made.hub) {
          cli.console.log('The agent hub is off on this server: set GATEWAY_AGENT_PORT (docs/agents.md).');
        }
      });
    });

  agents
    .command('list')
    .description('List every agent: online or not, address, location, pool, partner')
    .action(async () => {
      const rows = await cli.withServices((ctx) => listAgentsForAdmin(ctx.db));
      if (rows.length === 0) {
        cli.console.log('No agents. Make one with `bytegate agents token --partner EMAIL`.');
        return;
      }
      cli.console.table(
        rows.map((row) => ({
          id: row.id,
          name: row.name,
          partner: row.partnerEmail,
          status: row.revokedAt ? 'revoked' : row.status,
          online: row.isOnline ? 'online' : 'offline',
          address: row.lastAddress ?? '',
          location: [row.city, row.state, row.country].filter(Boolean).join(', '),
          asn: row.asn === null ? '' : `AS${row.asn}${row.asnName ? ` ${row.asnName}` : ''}`,
          pool: row.poolOverride ? `${row.poolOverride} (set)` : (row.poolType ?? ''),
          token: `${row.tokenPrefix}…`,
          lastSeen: row.lastSeenAt?.toISOString() ?? 'never',
        })),
      );
    });

  const changes = [
    ['revoke', "Revoke an agent's token for good: it is disconnected within seconds", 'is revoked'],
    ['ban', 'Ban an agent for good: it is disconnected within seconds and refused as banned', 'is banned'],
    ['quarantine', 'Hold an agent out (disconnected within seconds) until released', 'is quarantined'],
    ['release', 'Let a quarantined agent in again (at its next attempt to connect)', 'is released'],
  ] as const;
  for (const [change, description, done] of changes) {
    agents
      .command(change)
      .description(description)
      .argument('<id>', 'the agent id from `bytegate agents list`')
      .option('--reason <text>', 'why, kept in the audit log')
      .action(async (id: string, options: { reason?: string }) => {
        if (!AGENT_ID.test(id)) {
          fail(`"${id}" is not an agent id`);
          return;
        }
        await refusing(async () => {
          const { agent, isChanged } = await cli.withServices((ctx) =>
            changeAgentStatus(ctx, { agentId: id, change, reason: options.reason, actor: CLI_ACTOR }),
          );
          cli.console.log(`Agent ${agent.id} (${agent.name}) ${done}${isChanged ? '' : ' already'}.`);
        });
      });
  }
  addEarningsCommands(agents, cli, refusing);
  return agents;
}
