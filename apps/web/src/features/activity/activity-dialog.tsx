import { ACTIVITY_RETENTION_MONTHS, activityMessages } from '@bytegate/contracts/activity';
import { HistoryIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useActivity } from '../../api/use-activity.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogTrigger } from '../../components/ui/dialog.tsx';
import { EmptyState, ErrorState, LoadingRows } from '../admin/states.tsx';
import { ActivityList } from './activity-list.tsx';

/**
 * Every entry of the account's activity, newest first, a page at a time: "Show more" asks for the next
 * page with the cursor the last one gave, until none is left (13 months are kept). `children` is the
 * button that opens it, where focus goes back when it closes.
 */
export function ActivityDialog({ children }: { children: ReactNode }) {
  return (
    <Dialog>
      <DialogTrigger asChild>{children}</DialogTrigger>
      <DialogContent
        title="All activity"
        description={`What happened on your account over the last ${ACTIVITY_RETENTION_MONTHS} months, newest first.`}
        // The dialog itself scrolls once the list outgrows the screen: its buttons keep focus inside it.
        className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto p-5 sm:p-6"
      >
        <AllActivity />
      </DialogContent>
    </Dialog>
  );
}

function AllActivity() {
  const activity = useActivity();
  const entries = activity.data?.pages.flatMap((page) => page.entries) ?? [];
  if (activity.isPending) {
    return <LoadingRows what="activity" rows={6} />;
  }
  if (activity.isError && entries.length === 0) {
    return (
      <ErrorState
        error={activity.error}
        fallback={activityMessages.loadFailed}
        onRetry={() => void activity.refetch()}
        isRetrying={activity.isFetching}
      />
    );
  }
  if (entries.length === 0) {
    return (
      <EmptyState icon={HistoryIcon} title="No activity yet">
        Sign-ins, payments, purchases and changes to your settings will show here.
      </EmptyState>
    );
  }
  return (
    <div className="space-y-3">
      <ActivityList entries={entries} label="All activity" />
      <p className="sr-only" aria-live="polite">
        {`Showing ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}`}
      </p>
      {activity.isFetchNextPageError ? (
        <ErrorState
          error={activity.error}
          fallback={activityMessages.loadFailed}
          onRetry={() => void activity.fetchNextPage()}
          isRetrying={activity.isFetchingNextPage}
        />
      ) : activity.hasNextPage ? (
        <div className="flex justify-center">
          <Button
            type="button"
            variant="secondary"
            size="sm"
            isLoading={activity.isFetchingNextPage}
            onClick={() => void activity.fetchNextPage()}
          >
            Show more
          </Button>
        </div>
      ) : (
        <p className="text-center text-xs text-gray-500">
          That is everything from the last {ACTIVITY_RETENTION_MONTHS} months.
        </p>
      )}
    </div>
  );
}
