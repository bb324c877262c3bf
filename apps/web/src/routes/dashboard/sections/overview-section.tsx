import {
  ActivityIcon,
  ArrowRightIcon,
  CheckCircle2Icon,
  GaugeIcon,
  LayersIcon,
  NetworkIcon,
  ReceiptTextIcon,
  SlidersHorizontalIcon,
  WalletIcon,
} from 'lucide-react';
import { useDashboardStats } from '../../../api/use-dashboard-stats.ts';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { RecentActivityCard } from '../../../features/activity/recent-activity-card.tsx';
import { TrafficChartCard } from '../../../features/dashboard/traffic-chart-card.tsx';
import { useSession } from '../../../session/session-store.ts';
import type { SectionId } from '../sections.ts';

const numberFormat = new Intl.NumberFormat('en-US');

const quickActions: Array<{ id: SectionId; label: string; text: string; icon: typeof NetworkIcon }> = [
  { id: 'proxy-setup', label: 'Proxy Setup', text: 'Credentials, endpoints and lists', icon: NetworkIcon },
  { id: 'topup', label: 'Top Up Balance', text: 'Add funds with crypto', icon: WalletIcon },
  {
    id: 'proxy-settings',
    label: 'Proxy Settings',
    text: 'Targeting and rotation',
    icon: SlidersHorizontalIcon,
  },
  { id: 'orders', label: 'Orders', text: 'Payments and invoices', icon: ReceiptTextIcon },
];

export function OverviewSection({ onNavigate }: { onNavigate: (id: SectionId) => void }) {
  const session = useSession();
  const { data: stats, isPending } = useDashboardStats();
  const cards = [
    {
      label: 'Active Plans',
      value: numberFormat.format(stats?.activePlans ?? 0),
      icon: LayersIcon,
      note: 'Pools with traffic',
    },
    {
      label: 'Available Usage (GB)',
      value: (stats?.totalAvailableGb ?? 0).toFixed(2),
      icon: GaugeIcon,
      note: 'Across all plans',
    },
    // No requests is no rate at all: 100% before the first request would be a claim nothing backs.
    stats?.totalRequests
      ? {
          label: 'Success Rate',
          value: `${(100 - stats.errorRate).toFixed(1)}%`,
          icon: CheckCircle2Icon,
          note: `${stats.errorRate.toFixed(1)}% errors`,
        }
      : { label: 'Success Rate', value: '—', icon: CheckCircle2Icon, note: 'No requests yet' },
    {
      label: 'Requests (30d)',
      value: numberFormat.format(stats?.totalRequests ?? 0),
      icon: ActivityIcon,
      note: `${numberFormat.format(stats?.totalErrors ?? 0)} errors`,
    },
  ];

  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-2xl font-semibold tracking-tight break-words text-gray-900">
          Welcome back, {session?.user.firstName}
        </h2>
        <p className="mt-1 text-sm text-gray-600">Here is how your proxies are doing.</p>
      </div>

      {/* Two by two on a phone: four full-width cards would push everything else off the first screen. */}
      <section aria-label="Overview" className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        {cards.map((card) => (
          <Card key={card.label} className="p-4 sm:p-5">
            <div className="flex min-h-10 items-start justify-between gap-2 sm:min-h-0">
              <p className="text-sm font-medium text-gray-600">{card.label}</p>
              <card.icon className="size-5 shrink-0 text-brand-500" aria-hidden="true" />
            </div>
            {isPending ? (
              <Skeleton className="mt-3 h-8 w-20" />
            ) : (
              <p className="mt-2 text-2xl font-semibold tracking-tight text-gray-900 sm:text-3xl">
                {card.value}
              </p>
            )}
            <p className="mt-1 text-xs text-gray-500">{card.note}</p>
          </Card>
        ))}
      </section>

      <TrafficChartCard />

      <div className="grid gap-6 lg:grid-cols-5">
        <RecentActivityCard className="lg:col-span-3" />
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Quick Actions</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-2 py-4">
            {quickActions.map((action) => (
              <button
                key={action.id}
                type="button"
                onClick={() => onNavigate(action.id)}
                className="group flex items-center gap-3 rounded-lg border border-gray-200 px-3 py-2.5 text-left hover:border-brand-200 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-500"
              >
                <action.icon className="size-5 text-brand-600" aria-hidden="true" />
                <span className="flex-1">
                  <span className="block text-sm font-medium text-gray-900">{action.label}</span>
                  <span className="block text-xs text-gray-500">{action.text}</span>
                </span>
                <ArrowRightIcon
                  className="size-4 text-gray-400 group-hover:text-brand-600"
                  aria-hidden="true"
                />
              </button>
            ))}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
