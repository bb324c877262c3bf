import { Badge } from '../../components/ui/badge.tsx';

const statuses: Record<string, { label: string; tone: 'success' | 'warning' | 'danger' }> = {
  completed: { label: 'Completed', tone: 'success' },
  pending: { label: 'Pending', tone: 'warning' },
  failed: { label: 'Failed', tone: 'danger' },
  // A top-up paid short with no USD figure, held for a person to check (docs/money.md, "Payments in production").
  review: { label: 'Under review', tone: 'warning' },
};

/** An order's status; any other word shows as Unknown (SPEC section 4). */
export function OrderStatusBadge({ status }: { status: string }) {
  const known = statuses[status];
  return <Badge tone={known?.tone ?? 'neutral'}>{known?.label ?? 'Unknown'}</Badge>;
}
