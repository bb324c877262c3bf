import {
  ACTIVITY_PAGE_SIZE,
  type ActivityEntry,
  type ActivityPage,
  activityMessages,
  describeActivity,
  describeUserAgent,
} from '@bytegate/contracts/activity';
import { type ActivityRow, listActivity } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';

/** An entry as the feed shows it: worded by the contracts, the browser named from its user agent. */
export function presentActivity(row: ActivityRow): ActivityEntry {
  return {
    id: row.id,
    kind: row.kind,
    ...describeActivity({ kind: row.kind, details: row.details }),
    createdAt: row.createdAt.toISOString(),
    ipAddress: row.ipAddress ?? null,
    browser: describeUserAgent(row.userAgent),
  };
}

const encodeCursor = (row: { entry: ActivityRow; createdAtExact: string }) =>
  Buffer.from(`${row.createdAtExact}|${row.entry.id}`).toString('base64url');

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [at = '', id = '', ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !CURSOR_TIME.test(at) || Number.isNaN(Date.parse(at)) || !UUID.test(id)) {
    throw new DomainError('VALIDATION_FAILED', activityMessages.badCursor, { field: 'cursor' });
  }
  return { createdAt: at, id };
}

/**
 * The account's activity, newest first, ACTIVITY_PAGE_SIZE a page: the cursor names the last entry
 * of the page before by its exact (created_at, id), so paging shows each entry once even while new
 * ones arrive at the top.
 */
export async function listOwnActivity(
  ctx: ServiceContext,
  props: { userId: string; cursor?: string | undefined },
): Promise<ActivityPage> {
  const rows = await listActivity(ctx.db, {
    userId: props.userId,
    before: props.cursor ? decodeCursor(props.cursor) : undefined,
    limit: ACTIVITY_PAGE_SIZE + 1,
  });
  const page = rows.slice(0, ACTIVITY_PAGE_SIZE);
  const last = page.at(-1);
  return {
    entries: page.map((row) => presentActivity(row.entry)),
    nextCursor: rows.length > ACTIVITY_PAGE_SIZE && last ? encodeCursor(last) : null,
  };
}
