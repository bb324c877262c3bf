import type { AuditEntry } from '@bytegate/contracts/admin';
import { ArrowRightIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '../../components/ui/badge.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table.tsx';
import {
  auditActionLabel,
  auditChanges,
  auditCustomerId,
  fieldLabel,
  formatAuditValue,
} from './audit-labels.ts';
import { formatDateTime } from './format.ts';

interface AuditListProps {
  entries: AuditEntry[];
  /** Names the list for screen readers. */
  label: string;
  /** Whether to show the target column (the audit log does; a customer's page is about that customer). */
  showsTarget?: boolean;
}

/**
 * Audit entries: when, who, what, on what, the change (before → after) and why. A table on wide
 * screens; on a phone each entry is a card, so nothing scrolls sideways.
 */
export function AuditList({ entries, label, showsTarget = true }: AuditListProps) {
  return (
    <>
      <div className="hidden md:block">
        <Table aria-label={label}>
          <TableHeader>
            <TableRow>
              <TableHead>When</TableHead>
              <TableHead>Actor</TableHead>
              <TableHead>Action</TableHead>
              {showsTarget ? <TableHead>Target</TableHead> : null}
              <TableHead>Change</TableHead>
              <TableHead>Reason</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {entries.map((entry) => (
              <TableRow key={entry.id} className="align-top">
                <TableCell className="align-top text-gray-600">
                  <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
                </TableCell>
                <TableCell className="align-top">{entry.actorEmail}</TableCell>
                <TableCell className="align-top">
                  <Badge tone="brand">{auditActionLabel(entry.action)}</Badge>
                </TableCell>
                {showsTarget ? (
                  <TableCell className="align-top">
                    <AuditTarget entry={entry} />
                  </TableCell>
                ) : null}
                <TableCell className="align-top whitespace-normal">
                  <AuditChange entry={entry} />
                </TableCell>
                <TableCell className="max-w-72 align-top whitespace-normal break-words text-gray-700">
                  {entry.reason ?? <span className="text-gray-500">None given</span>}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <ul className="divide-y divide-gray-100 md:hidden" aria-label={label}>
        {entries.map((entry) => (
          <li key={entry.id} className="space-y-2 px-5 py-4 text-sm">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <Badge tone="brand">{auditActionLabel(entry.action)}</Badge>
              <time dateTime={entry.createdAt} className="text-xs text-gray-500">
                {formatDateTime(entry.createdAt)}
              </time>
            </div>
            <p className="break-all text-gray-600">
              By <span className="text-gray-900">{entry.actorEmail}</span>
            </p>
            {showsTarget ? <AuditTarget entry={entry} /> : null}
            <AuditChange entry={entry} />
            {entry.reason ? <p className="break-words text-gray-700">“{entry.reason}”</p> : null}
          </li>
        ))}
      </ul>
    </>
  );
}

/** Targets with a console page of their own besides customers. */
const TARGET_PAGES: Record<string, { label: string; path: (id: string) => string } | undefined> = {
  contact_message: { label: 'Message', path: (id) => `/admin/inbox/${encodeURIComponent(id)}` },
  outbox_message: { label: 'Outbox message', path: (id) => `/admin/outbox/${encodeURIComponent(id)}` },
  source: { label: 'Source', path: () => '/admin/supply' },
};

/** The entry's target: a customer, a message, or a plan or exit with a link to its owner's page. */
function AuditTarget({ entry }: { entry: AuditEntry }) {
  const customerId = auditCustomerId(entry);
  const linkClass =
    'font-medium text-brand-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500';
  if (entry.targetType === 'user') {
    return (
      <Link to={`/admin/customers/${entry.targetId}`} className={linkClass} title={entry.targetId}>
        Customer <span className="font-mono text-xs">{entry.targetId.slice(0, 8)}</span>
      </Link>
    );
  }
  const page = TARGET_PAGES[entry.targetType];
  if (page) {
    return (
      <Link to={page.path(entry.targetId)} className={linkClass} title={entry.targetId}>
        {page.label} <span className="font-mono text-xs">{entry.targetId.slice(0, 8)}</span>
      </Link>
    );
  }
  return (
    <span className="block text-gray-700">
      <span title={entry.targetId}>
        {entry.targetType === 'plan' ? 'Plan' : entry.targetType}{' '}
        <span className="font-mono text-xs">{entry.targetId.slice(0, 8)}</span>
      </span>
      {customerId ? (
        <>
          {' · '}
          <Link to={`/admin/customers/${customerId}`} className={linkClass} title={customerId}>
            owner
          </Link>
        </>
      ) : null}
    </span>
  );
}

function AuditChange({ entry }: { entry: AuditEntry }) {
  const changes = auditChanges(entry.before, entry.after);
  if (changes.length === 0) {
    return <span className="text-gray-500">—</span>;
  }
  return (
    <ul className="space-y-0.5">
      {changes.map(({ key, kind, before, after }) => (
        <li key={key} className="flex flex-wrap items-center gap-1.5">
          <span className="text-gray-600">{fieldLabel(key)}:</span>
          {kind === 'changed' ? (
            <>
              <span className="text-gray-700 tabular-nums">{formatAuditValue(key, before)}</span>
              <ArrowRightIcon className="size-3.5 text-gray-400" aria-hidden="true" />
              <span className="sr-only">to</span>
              <span className="font-medium text-gray-900 tabular-nums">{formatAuditValue(key, after)}</span>
            </>
          ) : (
            <span className="text-gray-900 tabular-nums">
              {formatAuditValue(key, kind === 'after' ? after : before)}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
