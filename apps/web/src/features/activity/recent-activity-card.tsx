import { ACTIVITY_RECENT_COUNT, activityMessages } from '@bytegate/contracts/activity';
import { HistoryIcon } from 'lucide-react';
import { useId } from 'react';
import { useActivity } from '../../api/use-activity.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { EmptyState, ErrorState, LoadingRows } from '../admin/states.tsx';
import { ActivityDialog } from './activity-dialog.tsx';
import { ActivityList } from './activity-list.tsx';

/**
 * The Dashboard's Recent Activity: the account's latest entries, and "View all", which opens the full
 * list paging on to older ones.
 */
export function RecentActivityCard({ className }: { className?: string }) {
  const activity = useActivity();
  const titleId = useId();
  const entries = activity.data?.pages[0]?.entries ?? [];
  return (
    <Card aria-labelledby={titleId} className={cn('flex flex-col', className)}>
      <CardHeader className="flex min-h-[3.75rem] flex-row items-center justify-between gap-3 space-y-0">
        <CardTitle id={titleId}>Recent Activity</CardTitle>
        {entries.length > 0 ? (
          <ActivityDialog>
            <Button type="button" variant="link" size="sm" className="px-0">
              View all<span className="sr-only"> activity</span>
            </Button>
          </ActivityDialog>
        ) : null}
      </CardHeader>
      <CardContent className="flex-1 py-2">
        {activity.isPending ? (
          <LoadingRows what="recent activity" rows={ACTIVITY_RECENT_COUNT} className="py-3" />
        ) : activity.isError && entries.length === 0 ? (
          <div className="py-3">
            <ErrorState
              error={activity.error}
              fallback={activityMessages.loadFailed}
              onRetry={() => void activity.refetch()}
              isRetrying={activity.isFetching}
            />
          </div>
        ) : entries.length === 0 ? (
          <EmptyState icon={HistoryIcon} title="No activity yet" className="py-8">
            Sign-ins, payments, purchases and changes to your settings will show here.
          </EmptyState>
        ) : (
          <ActivityList entries={entries.slice(0, ACTIVITY_RECENT_COUNT)} label="Recent activity" />
        )}
      </CardContent>
    </Card>
  );
}
