import { ChevronLeftIcon, MailOpenIcon, MailXIcon, SendIcon } from 'lucide-react';
import { Link } from 'react-router';
import { ApiError } from '../../api/api-client.ts';
import { useOutbox, useOutboxMessage } from '../../api/use-admin-support.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { PageHeader } from '../../features/admin/page-header.tsx';
import { EmptyState, ErrorState, isNotFound, LoadingRows } from '../../features/admin/states.tsx';
import { OutboxList } from '../../features/admin/support/outbox-list.tsx';
import { OutboxMessageView } from '../../features/admin/support/outbox-message-view.tsx';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/**
 * The Outbox: without SMTP_URL the server writes every mail as an .eml file to DATA_DIR/outbox, and
 * this lists them, so a fresh clone shows what would have been sent. The list and the open message
 * sit side by side on a wide screen; on a phone one at a time, the message with a way back.
 */
export function OutboxPage({ outboxId }: { outboxId: string | null }) {
  useDocumentTitle('Outbox · Console');
  const outbox = useOutbox();
  const transport = outbox.data?.pages[0]?.transport;
  const messages = outbox.data?.pages.flatMap((page) => page.messages) ?? [];
  // Nothing to open: the list alone, full width.
  const isListOnly = outbox.data !== undefined && messages.length === 0 && !outboxId;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Outbox"
        description="Without SMTP_URL the server sends no mail: it writes each message as an .eml file to DATA_DIR/outbox, listed here."
      />
      {transport === 'smtp' ? (
        <Alert tone="info" className="flex gap-3">
          <SendIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            Mail goes out through the SMTP server in SMTP_URL and is not kept here.
            {messages.length > 0 ? ' The messages below were written before SMTP_URL was set.' : ''}
          </span>
        </Alert>
      ) : null}

      <div
        className={cn(
          'grid items-start gap-6',
          !isListOnly && 'lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]',
        )}
      >
        <Card aria-labelledby="outbox-list-title" className={cn(outboxId && 'hidden lg:block')}>
          <div className="flex items-center justify-between gap-3 border-b border-gray-100 px-5 py-3">
            <h2 id="outbox-list-title" className="text-base font-semibold text-gray-900">
              Messages
            </h2>
            <p className="text-sm text-gray-600" role="status" aria-live="polite">
              {messages.length > 0 ? `${messages.length}${outbox.hasNextPage ? '+' : ''} shown` : ''}
            </p>
          </div>
          {outbox.isPending ? (
            <LoadingRows what="outbox" rows={5} className="p-5" />
          ) : outbox.isError ? (
            <div className="p-5">
              <ErrorState
                error={outbox.error}
                fallback="The outbox could not be read. Please try again."
                onRetry={() => void outbox.refetch()}
                isRetrying={outbox.isFetching}
              />
            </div>
          ) : messages.length === 0 ? (
            <EmptyState icon={MailOpenIcon} title="Nothing in the outbox">
              {transport === 'smtp'
                ? 'This server sends mail through SMTP, so none is kept here.'
                : 'Replies to contact messages and other mail the server sends appear here.'}
            </EmptyState>
          ) : (
            <>
              <OutboxList messages={messages} selectedId={outboxId} />
              {outbox.hasNextPage ? (
                <div className="border-t border-gray-100 p-3">
                  <Button
                    variant="secondary"
                    size="sm"
                    className="w-full"
                    isLoading={outbox.isFetchingNextPage}
                    onClick={() => void outbox.fetchNextPage()}
                  >
                    Load older messages
                  </Button>
                </div>
              ) : null}
            </>
          )}
        </Card>

        <div className={cn('min-w-0', !outboxId && 'hidden lg:block', isListOnly && 'lg:hidden')}>
          {outboxId ? (
            <OpenMessage outboxId={outboxId} />
          ) : (
            <Card>
              <EmptyState icon={MailOpenIcon} title="No message open">
                Choose a message to read its headers, its HTML and its plain text.
              </EmptyState>
            </Card>
          )}
        </div>
      </div>
    </div>
  );
}

function OpenMessage({ outboxId }: { outboxId: string }) {
  const message = useOutboxMessage(outboxId);
  return (
    <div className="space-y-3">
      <nav aria-label="Breadcrumb" className="lg:hidden">
        <Link
          to="/admin/outbox"
          className="inline-flex items-center gap-1 rounded text-sm font-medium text-gray-600 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-brand-500"
        >
          <ChevronLeftIcon className="size-4" aria-hidden="true" />
          All messages
        </Link>
      </nav>
      <Card aria-label="Open message">
        {message.isPending ? (
          <div role="status" aria-label="Loading message" className="space-y-3 p-5 sm:px-6">
            <Skeleton className="h-7 w-2/3" />
            <Skeleton className="h-24" />
            <Skeleton className="h-72" />
          </div>
        ) : message.isError ? (
          // A malformed id (400) names no message either.
          isNotFound(message.error) || (message.error instanceof ApiError && message.error.status === 400) ? (
            <EmptyState icon={MailXIcon} title="This message is not in the outbox">
              Its file may have been removed from DATA_DIR/outbox.
            </EmptyState>
          ) : (
            <div className="p-5 sm:px-6">
              <ErrorState
                error={message.error}
                fallback="The message could not be read. Please try again."
                onRetry={() => void message.refetch()}
                isRetrying={message.isFetching}
              />
            </div>
          )
        ) : (
          <OutboxMessageView message={message.data} />
        )}
      </Card>
    </div>
  );
}
