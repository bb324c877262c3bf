import { ChevronLeftIcon, MailXIcon } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { ApiError } from '../../api/api-client.ts';
import { useContactThread } from '../../api/use-admin-support.ts';
import { Card } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { formatAgo } from '../../features/admin/format.ts';
import { PageHeader } from '../../features/admin/page-header.tsx';
import { EmptyState, ErrorState, isNotFound } from '../../features/admin/states.tsx';
import { ContactStatusBadge } from '../../features/admin/support/contact-status.tsx';
import { ThreadComposer } from '../../features/admin/support/thread-composer.tsx';
import { ThreadConversation } from '../../features/admin/support/thread-conversation.tsx';
import { ThreadDetails } from '../../features/admin/support/thread-details.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** A contact message as a thread: the conversation and what to write on the left, its state on the right. */
export function ContactThreadPage({ messageId }: { messageId: string }) {
  const location = useLocation();
  const backTo = (location.state as { backTo?: string } | null)?.backTo ?? '/admin/inbox';
  const thread = useContactThread(messageId);
  const subject = thread.data ? (thread.data.message.subject ?? 'No subject') : null;
  useDocumentTitle(`${subject ?? 'Message'} · Inbox · Console`);

  const back = (
    <nav aria-label="Breadcrumb">
      <Link
        to={backTo}
        className="inline-flex items-center gap-1 rounded text-sm font-medium text-gray-600 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-brand-500"
      >
        <ChevronLeftIcon className="size-4" aria-hidden="true" />
        Inbox
      </Link>
    </nav>
  );

  if (thread.isPending) {
    return (
      <div role="status" aria-label="Loading message" className="space-y-6">
        {back}
        <Skeleton className="h-9 w-80 max-w-full" />
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="space-y-4">
            <Skeleton className="h-48" />
            <Skeleton className="h-64" />
          </div>
          <Skeleton className="h-96" />
        </div>
      </div>
    );
  }
  if (thread.isError) {
    // A malformed id (400) names no message either.
    const isMissing =
      isNotFound(thread.error) || (thread.error instanceof ApiError && thread.error.status === 400);
    return (
      <div className="space-y-6">
        <PageHeader before={back} title={isMissing ? 'Message not found' : 'Message'} />
        {isMissing ? (
          <Card>
            <EmptyState icon={MailXIcon} title="There is no message with this id">
              Check the link, or find the message in the inbox.
            </EmptyState>
          </Card>
        ) : (
          <ErrorState
            error={thread.error}
            fallback="This message could not be loaded. Please try again."
            onRetry={() => void thread.refetch()}
            isRetrying={thread.isFetching}
          />
        )}
      </div>
    );
  }

  const { message } = thread.data;
  return (
    <div className="space-y-6">
      <PageHeader
        before={back}
        title={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className={message.subject ? 'break-words' : 'text-gray-600'}>{subject}</span>
            <ContactStatusBadge status={message.status} className="text-sm" />
          </span>
        }
        description={
          <span className="wrap-anywhere">
            From {message.name} &lt;{message.email}&gt; ·{' '}
            <time dateTime={message.createdAt}>{formatAgo(message.createdAt)}</time>
          </span>
        }
      />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-6">
          <ThreadConversation thread={thread.data} />
          <ThreadComposer messageId={message.id} name={message.name} email={message.email} />
        </div>
        <div className="min-w-0 lg:sticky lg:top-24">
          <ThreadDetails thread={thread.data} />
        </div>
      </div>
    </div>
  );
}
