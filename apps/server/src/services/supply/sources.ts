import {
  createSource,
  getSource,
  getSourceByName,
  insertAuditEntry,
  listSourceProbes,
  listSources,
  listSourceUsage,
  type SourceChange,
  type SourceRow,
  updateSource,
} from '@bytegate/db/queries';
import type { StaffActor } from '../back-office/staff-actor.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { checkMayChangeInventory } from '../inventory/inventory-access.ts';
import { auditedSource, SOURCE_STATES, sourceInputSchema, toNewSource } from './source-input.ts';
import { centsForByteCents, presentProbe, sumUsage, supplyWindow } from './supply-figures.ts';

// The sources of supply, changed by an admin or the command line, each change audited in its own
// transaction. A running gateway routes by a change within a second (it reads the sources every second).

/**
 * A refusal of the source's fields: the first problem as the message (what the command line prints),
 * `field` naming its field, and `fields` every field's first problem (what the console shows by each).
 */
function validationError(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): DomainError {
  const [issue] = issues;
  const field = issue?.path.join('.') || undefined;
  const fields: Record<string, string> = {};
  for (const { path, message } of issues) {
    const name = path.join('.');
    if (name && fields[name] === undefined) {
      fields[name] = message;
    }
  }
  return new DomainError(
    'VALIDATION_FAILED',
    issue?.message ?? 'The source is not valid',
    field ? { field, fields } : undefined,
  );
}

/** Adds a source; a pool has one source of our own exits, and names are unique. */
export async function addSource(
  ctx: ServiceContext,
  props: { input: Record<string, unknown>; reason?: string | undefined; actor: StaffActor },
): Promise<SourceRow> {
  checkMayChangeInventory(props.actor, 'sources');
  const parsed = sourceInputSchema.safeParse(props.input);
  if (!parsed.success) {
    throw validationError(parsed.error.issues);
  }
  const input = parsed.data;
  return ctx.db.transaction(async (tx) => {
    if (await getSourceByName(tx, { name: input.name })) {
      throw new DomainError('CONFLICT', `A source is already named ${input.name}`, { field: 'name' });
    }
    if (input.kind === 'exits') {
      const own = (await listSources(tx)).find((row) => row.kind === 'exits' && row.poolType === input.pool);
      if (own) {
        throw new DomainError(
          'CONFLICT',
          `The ${input.pool} pool's own exits are already the source ${own.name}`,
          {
            field: 'kind',
          },
        );
      }
    }
    const created = await createSource(tx, { source: toNewSource(input) });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'source.add',
      targetType: 'source',
      targetId: created.id,
      before: null,
      after: auditedSource(created),
      reason: props.reason ?? null,
    });
    return created;
  });
}

export interface SourceSettings {
  weight?: string | number | undefined;
  state?: string | undefined;
  costPerGb?: string | number | undefined;
  url?: string | undefined;
  clearAlarm?: boolean | undefined;
}

/**
 * Changes a source's weight, state, cost or endpoint, or clears its alarm, audited with before and after.
 * The command line names a source by its name or id; the console by its id only (`{ id }`).
 */
export async function changeSource(
  ctx: ServiceContext,
  props: {
    source: string | { id: string };
    settings: SourceSettings;
    reason?: string | undefined;
    actor: StaffActor;
  },
): Promise<SourceRow> {
  checkMayChangeInventory(props.actor, 'sources');
  const known =
    typeof props.source === 'string'
      ? await findSource(ctx, props.source)
      : await getSourceById(ctx, props.source.id);
  const { settings } = props;
  // The same rules as adding one: the changed fields read against the rest of the row.
  const parsed = sourceInputSchema.safeParse({
    name: known.name,
    pool: known.poolType,
    kind: known.kind,
    grammar: known.grammar ?? undefined,
    template: known.template ?? undefined,
    passwordTemplate: known.passwordTemplate ?? undefined,
    url: settings.url ?? known.endpointUrl ?? undefined,
    costPerGb: settings.costPerGb ?? (known.costPerGbCents / 100).toFixed(2),
    weight: settings.weight ?? known.weight,
    state: settings.state ?? known.state,
  });
  if (!parsed.success) {
    throw validationError(parsed.error.issues);
  }
  const change: SourceChange = {
    weight: parsed.data.weight,
    state: parsed.data.state,
    costPerGbCents: parsed.data.costPerGb,
    ...(settings.url !== undefined && known.kind === 'network' ? { endpointUrl: parsed.data.url } : {}),
    ...(settings.clearAlarm ? { alarm: null, alarmAt: null } : {}),
  };
  return ctx.db.transaction(async (tx) => {
    const changed = await updateSource(tx, { id: known.id, change });
    if (!changed) {
      throw sourceNotFound();
    }
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'source.change',
      targetType: 'source',
      targetId: known.id,
      before: auditedSource(changed.before),
      after: auditedSource(changed.after),
      reason: props.reason ?? null,
    });
    return changed.after;
  });
}

export const sourceNotFound = () => new DomainError('NOT_FOUND', 'No such source');

/** A source by its id. */
async function getSourceById(ctx: ServiceContext, id: string): Promise<SourceRow> {
  const row = await getSource(ctx.db, { id });
  if (!row) {
    throw sourceNotFound();
  }
  return row;
}

/** A source by its name or its id. */
export async function findSource(ctx: ServiceContext, nameOrId: string): Promise<SourceRow> {
  const rows = await listSources(ctx.db);
  const row = rows.find((candidate) => candidate.id === nameOrId || candidate.name === nameOrId);
  if (!row) {
    throw new DomainError('NOT_FOUND', `No source is named ${nameOrId}`);
  }
  return row;
}

/** Every source with what it carried, what that cost, and how its dials went over the last `days` days, and its last probe. */
export async function listSourcesWithFigures(ctx: ServiceContext, props: { days: number; now?: Date }) {
  const { from, to } = supplyWindow(props.days, props.now);
  const [rows, usage, probes] = await Promise.all([
    listSources(ctx.db),
    listSourceUsage(ctx.db, { from, to }),
    listSourceProbes(ctx.db),
  ]);
  return rows.map((row) => {
    const probe = probes.find((one) => one.sourceId === row.id);
    const sums = sumUsage(usage.filter((day) => day.sourceId === row.id));
    return {
      row,
      probe: probe ? presentProbe(probe) : null,
      carriedBytes: sums.carriedBytes,
      billedBytes: sums.billedBytes,
      costCents: centsForByteCents(sums.costByteCents),
      connects: sums.connects,
      failures: sums.failures,
      connectMs: sums.connects > 0 ? Math.round(sums.connectMsTotal / sums.connects) : null,
    };
  });
}

export { SOURCE_STATES };
