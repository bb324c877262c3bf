import type { ThreadRequestStatus } from '@bytegate/contracts/thread-requests';
import { Badge } from '../../components/ui/badge.tsx';
import { cn } from '../../lib/cn.ts';

const LOOKS: Record<
  ThreadRequestStatus,
  { label: string; tone: 'warning' | 'success' | 'danger' | 'neutral'; dot: string }
> = {
  pending: { label: 'Pending', tone: 'warning', dot: 'bg-amber-500' },
  approved: { label: 'Approved', tone: 'success', dot: 'bg-emerald-500' },
  declined: { label: 'Declined', tone: 'danger', dot: 'bg-red-500' },
  cancelled: { label: 'Cancelled', tone: 'neutral', dot: 'bg-gray-400' },
};

/** A thread request's status as people read it. */
export const threadRequestStatusLabel = (status: ThreadRequestStatus) => LOOKS[status].label;

/** The status as a badge, with a dot so it does not rest on colour alone. */
export function ThreadRequestStatusBadge({
  status,
  className,
}: {
  status: ThreadRequestStatus;
  className?: string;
}) {
  const look = LOOKS[status];
  return (
    <Badge tone={look.tone} className={cn('gap-1.5', className)}>
      <span aria-hidden="true" className={cn('size-1.5 rounded-full', look.dot)} />
      {look.label}
    </Badge>
  );
}
