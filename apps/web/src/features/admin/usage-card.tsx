import { useCustomerUsage } from '../../api/use-admin-customer-usage.ts';
import { TrafficChart } from '../dashboard/traffic-chart-card.tsx';

/** A customer's daily traffic on their console page: the chart of their own overview, every plan together. */
export function CustomerUsageCard({ userId }: { userId: string }) {
  return <TrafficChart traffic={useCustomerUsage(userId)} emptyText="No traffic in the last 30 days." />;
}
