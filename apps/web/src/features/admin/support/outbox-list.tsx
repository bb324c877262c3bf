import type { OutboxItem } from '@bytegate/contracts/admin-support';
import { LockKeyholeIcon } from 'lucide-react';
import { Link } from 'react-router';
import { cn } from '../../../lib/cn.ts';
import { formatAgo, formatDateTime } from '../format.ts';

/** The outbox's messages, newest first, each a link to itself; the one open is marked. */
export function OutboxList({ messages, selectedId }: { messages: OutboxItem[]; selectedId: string | null }) {
  return (
    <ul className="divide-y divide-gray-100" aria-label="Outbox messages">
      {messages.map((message) => {
        const isSelected = message.id === selectedId;
        return (
          <li key={message.id}>
            <Link
              to={`/admin/outbox/${message.id}`}
              aria-current={isSelected ? 'true' : undefined}
              className={cn(
                'block space-y-0.5 border-l-2 px-5 py-3 transition-colors focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-500',
                isSelected ? 'border-brand-600 bg-brand-50' : 'border-transparent hover:bg-gray-50',
              )}
            >
              <span className="flex items-baseline justify-between gap-3">
                <span className="min-w-0 truncate text-sm font-medium text-gray-900">
                  {message.subject || <span className="font-normal text-gray-600 italic">No subject</span>}
                </span>
                <time
                  dateTime={message.createdAt}
                  title={formatDateTime(message.createdAt)}
                  className="shrink-0 text-xs text-gray-600"
                >
                  {formatAgo(message.createdAt)}
                </time>
              </span>
              <span className="flex items-center gap-1.5 text-sm text-gray-600">
                <span className="min-w-0 truncate">
                  <span className="sr-only">To </span>
                  {message.to || 'No recipient'}
                </span>
                {message.redaction === 'redacted' ? (
                  <span className="ml-auto inline-flex shrink-0 items-center gap-1 text-xs">
                    <LockKeyholeIcon className="size-3.5" aria-hidden="true" />
                    Link redacted
                  </span>
                ) : null}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
