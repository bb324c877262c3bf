import type { ActivityDetails, ActivityKind } from '@bytegate/contracts/activity';
import type { Executor } from '@bytegate/db';
import { insertActivity } from '@bytegate/db/queries';
import type { RequestOrigin } from '../context.ts';

/** How much of a user agent is kept (as sessions keep it). */
const USER_AGENT_MAX_LENGTH = 512;
/** Any text in an entry's details is cut to this (names and labels are far shorter already). */
const DETAIL_TEXT_MAX_LENGTH = 300;

export interface RecordActivityProps<K extends ActivityKind> {
  userId: string;
  kind: K;
  details: ActivityDetails[K];
  /** The request of the person who did it (the customer), where one did: sign-ins, security changes. */
  origin?: RequestOrigin | null | undefined;
}

/**
 * Writes an entry of the customer's activity feed. Pass the transaction that made the thing so, where
 * there is one, so the entry is there exactly when the change is (and never when it rolled back);
 * where there is none, call it right after the change. Staff actions are recorded with no origin and
 * with details worded for the customer: never the staff member, never an internal reason.
 */
export async function recordActivity<K extends ActivityKind>(
  db: Executor,
  props: RecordActivityProps<K>,
): Promise<void> {
  await insertActivity(db, {
    userId: props.userId,
    kind: props.kind,
    details: storable(props.details) as Record<string, unknown>,
    ipAddress: props.origin?.ipAddress ?? null,
    userAgent: props.origin?.userAgent ? storableText(props.origin.userAgent, USER_AGENT_MAX_LENGTH) : null,
  });
}

/** Text PostgreSQL keeps (no NUL, no other control character), cut to `max`. */
function storableText(value: string, max: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  return value.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, max);
}

/** The details with every text storable: jsonb refuses NUL, and no entry needs a long text. */
function storable(value: unknown): unknown {
  if (typeof value === 'string') {
    return storableText(value, DETAIL_TEXT_MAX_LENGTH);
  }
  if (Array.isArray(value)) {
    return value.slice(0, 50).map(storable);
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, field]) => field !== undefined)
        .map(([key, field]) => [key, storable(field)]),
    );
  }
  return value;
}
