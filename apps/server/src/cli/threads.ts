import { MAX_THREAD_LIMIT, MIN_THREAD_LIMIT } from '@bytegate/contracts/admin';
import { POOL_TYPES, type PoolType } from '@bytegate/contracts/pools';
import { listUserPlansInFull } from '@bytegate/db/queries';
import { Command, InvalidArgumentError } from 'commander';
import { changeThreadLimit } from '../services/back-office/change-thread-limit.ts';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import { DomainError } from '../services/domain-error.ts';
import type { CliContext } from './context.ts';
import { resolveCustomerId } from './customer-ref.ts';

function parseLimit(value: string): number {
  const limit = Number(value);
  if (!/^\d+$/.test(value) || limit < MIN_THREAD_LIMIT || limit > MAX_THREAD_LIMIT) {
    throw new InvalidArgumentError(`must be a whole number from ${MIN_THREAD_LIMIT} to ${MAX_THREAD_LIMIT}`);
  }
  return limit;
}

function parsePool(value: string): PoolType {
  if (!(POOL_TYPES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of ${POOL_TYPES.join(', ')}`);
  }
  return value as PoolType;
}

export function threadsCommand(cli: CliContext): Command {
  const threads = new Command('threads').description("Plans' concurrent connection limits");
  threads
    .command('set')
    .description("Set a plan's thread limit (audited); a running gateway applies it within 2 s")
    .argument('<customer>', 'the account, by email or id')
    .requiredOption('--pool <pool>', `the plan's pool: ${POOL_TYPES.join(', ')}`, parsePool)
    .requiredOption('--limit <threads>', 'the new limit of concurrent connections', parseLimit)
    .requiredOption('--reason <text>', 'why, kept in the audit log')
    .allowExcessArguments(false)
    .action(async (reference: string, options: { pool: PoolType; limit: number; reason: string }) => {
      const { plan, before } = await cli.withServices(async (ctx) => {
        const userId = await resolveCustomerId(ctx, reference);
        const owned = await listUserPlansInFull(ctx.db, { userId });
        const current = owned.find((row) => row.plan.poolType === options.pool)?.plan;
        if (!current) {
          throw new DomainError('NOT_FOUND', `${reference} has no ${options.pool} plan`);
        }
        const changed = await changeThreadLimit(ctx, {
          planId: current.id,
          threadLimit: options.limit,
          reason: options.reason,
          actor: CLI_ACTOR,
        });
        return { plan: changed, before: current.threadLimit };
      });
      cli.console.log(
        before === plan.threadLimit
          ? `${plan.login} already has ${plan.threadLimit} threads; nothing changed.`
          : `${plan.login} (${plan.poolType}) now has ${plan.threadLimit} threads (was ${before}).`,
      );
    });
  return threads;
}
