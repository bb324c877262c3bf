import type { Plan } from '@bytegate/contracts/billing';
import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import { PlusIcon } from 'lucide-react';
import { useLivePlan } from '../../api/use-plans.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';

const gb = (bytes: number) => (bytes / BYTES_PER_GB).toFixed(2);

/** Usage Statistics: traffic left of the total, with a bar that fills as it is used. */
export function UsageCard({ plan: listed, onAddGb }: { plan: Plan; onAddGb: () => void }) {
  const plan = useLivePlan(listed).data;
  const total = plan.trafficTotalBytes;
  const left = Math.max(0, plan.balance);
  const leftPercent = total > 0 ? Math.min(100, (left / total) * 100) : 0;
  const isLow = leftPercent < 10;
  return (
    <Card>
      <CardHeader className="flex flex-row items-start justify-between gap-4">
        <div>
          <CardTitle>Usage Statistics</CardTitle>
          <p className="mt-2 text-sm text-gray-600">
            <span className="text-2xl font-semibold tracking-tight text-gray-900" data-testid="traffic-left">
              {gb(left)} GB
            </span>{' '}
            left of {gb(total)} GB
          </p>
        </div>
        <Button type="button" size="sm" onClick={onAddGb}>
          <PlusIcon aria-hidden="true" />
          Add GB's
        </Button>
      </CardHeader>
      <CardContent className="pb-5">
        <div
          role="progressbar"
          aria-label="Traffic left"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(leftPercent)}
          aria-valuetext={`${gb(left)} GB left of ${gb(total)} GB`}
          className="h-2.5 overflow-hidden rounded-full bg-gray-100"
        >
          <div
            className={cn('h-full rounded-full transition-[width]', isLow ? 'bg-amber-500' : 'bg-brand-500')}
            style={{ width: `${leftPercent}%` }}
          />
        </div>
        <div className="mt-2 flex justify-between text-xs text-gray-500">
          <span>{gb(plan.trafficUsedBytes)} GB used</span>
          <span>{Math.floor(leftPercent)}% left</span>
        </div>
      </CardContent>
    </Card>
  );
}
