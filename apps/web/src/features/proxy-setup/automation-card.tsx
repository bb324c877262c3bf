import type { Plan } from '@bytegate/contracts/billing';
import { planPriceCents } from '@bytegate/contracts/billing';
import { formatUsdGrouped } from '@bytegate/contracts/money';
import type { PlanAutomation } from '@bytegate/contracts/notifications';
import { BellRingIcon, RepeatIcon } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import {
  usePlanAutomation,
  useRemoveAutoBuy,
  useRemoveLowTrafficAlert,
  useSetAutoBuy,
  useSetLowTrafficAlert,
} from '../../api/use-notifications.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Label } from '../../components/ui/label.tsx';
import { SegmentedControl } from '../../components/ui/segmented-control.tsx';
import { Switch } from '../../components/ui/switch.tsx';
import { formatDate } from '../admin/format.ts';
import { ErrorState, LoadingRows } from '../admin/states.tsx';
import {
  type AlertMode,
  type AutoBuyFormValues,
  describeAlert,
  describeAutoBuyStatus,
  parseAlertForm,
  parseAutoBuyForm,
} from './automation-format.ts';

/**
 * Alerts & Auto-buy: a plan's low-traffic warning (GB left, or the share used) and its auto-buy ("when
 * traffic left falls under X GB, buy Y GB, at most Z times a month"), so jobs never stop for want of
 * traffic. What each sends is chosen under Notifications in User Settings.
 */
export function AutomationCard({ plan }: { plan: Plan }) {
  const automation = usePlanAutomation(plan.subUserId);
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Alerts &amp; Auto-buy</CardTitle>
        <CardDescription>
          Hear about low traffic before it runs out, or let us buy more from your balance. Choose how you are
          told in User Settings, under Notifications.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {automation.isPending ? (
          <LoadingRows what="alerts and auto-buy" rows={3} />
        ) : automation.isError ? (
          <ErrorState
            error={automation.error}
            fallback="Failed to load the alerts and auto-buy of this plan."
            onRetry={() => void automation.refetch()}
            isRetrying={automation.isFetching}
          />
        ) : (
          <div className="grid gap-6 lg:grid-cols-2 lg:divide-x lg:divide-gray-100">
            <LowTrafficAlertForm planId={plan.subUserId} alert={automation.data.lowTraffic} />
            <AutoBuyForm plan={plan} autoBuy={automation.data.autoBuy} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function LowTrafficAlertForm({ planId, alert }: { planId: string; alert: PlanAutomation['lowTraffic'] }) {
  const set = useSetLowTrafficAlert(planId);
  const remove = useRemoveLowTrafficAlert(planId);
  const [mode, setMode] = useState<AlertMode>(alert?.thresholdPercent != null ? 'percent' : 'gb');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const headingId = useId();
  useEffect(() => {
    setMode(alert?.thresholdPercent != null ? 'percent' : 'gb');
    setValue(alert ? String(alert.thresholdPercent ?? alert.thresholdGb ?? '') : '');
  }, [alert]);

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = parseAlertForm(mode, value);
    if ('error' in parsed) {
      setError(parsed.error);
      return;
    }
    setError(undefined);
    set.mutate(parsed.body, {
      onSuccess: () => toast.success('Low-traffic alert saved'),
      onError: (failure) => setError(errorMessage(failure, 'Failed to save the alert.')),
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby={headingId} className="min-w-0 space-y-4">
      <div className="flex items-center gap-2">
        <BellRingIcon className="size-4 text-brand-600" aria-hidden="true" />
        <h3 id={headingId} className="font-medium text-gray-900">
          Low-traffic alert
        </h3>
        {alert ? (
          <Badge tone={alert.isTriggered ? 'warning' : 'success'}>{alert.isTriggered ? 'Below' : 'On'}</Badge>
        ) : null}
      </div>
      <p className="text-sm text-gray-600" data-testid="alert-status">
        {describeAlert(alert)}
      </p>
      <SegmentedControl
        label="Warn by"
        value={mode}
        onValueChange={(next) => {
          setMode(next);
          setError(undefined);
        }}
        options={[
          { value: 'gb', label: 'GB left' },
          { value: 'percent', label: 'Share used' },
        ]}
      />
      <div className="max-w-56">
        <FormField
          label={mode === 'gb' ? 'Warn under (GB left)' : 'Warn at (% used)'}
          inputMode="decimal"
          autoComplete="off"
          placeholder={mode === 'gb' ? 'e.g. 2' : 'e.g. 90'}
          value={value}
          error={error}
          onChange={(event) => setValue(event.target.value)}
        />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" isLoading={set.isPending}>
          Save Alert
        </Button>
        {alert ? (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            isLoading={remove.isPending}
            onClick={() =>
              remove.mutate(undefined, {
                onSuccess: () => toast.success('Low-traffic alert removed'),
                onError: (failure) => toast.error(errorMessage(failure, 'Failed to remove the alert.')),
              })
            }
          >
            Remove
          </Button>
        ) : null}
      </div>
    </form>
  );
}

const valuesOf = (autoBuy: PlanAutomation['autoBuy']): AutoBuyFormValues => ({
  thresholdGb: autoBuy ? String(autoBuy.thresholdGb) : '',
  quantityGb: autoBuy ? String(autoBuy.quantityGb) : '5',
  maxPerMonth: autoBuy ? String(autoBuy.maxPerMonth) : '3',
});

function AutoBuyForm({ plan, autoBuy }: { plan: Plan; autoBuy: PlanAutomation['autoBuy'] }) {
  const set = useSetAutoBuy(plan.subUserId);
  const remove = useRemoveAutoBuy(plan.subUserId);
  const [values, setValues] = useState<AutoBuyFormValues>(() => valuesOf(autoBuy));
  const [isEnabled, setEnabled] = useState(autoBuy?.isEnabled ?? true);
  const [errors, setErrors] = useState<Partial<Record<keyof AutoBuyFormValues, string>>>({});
  const [serverError, setServerError] = useState<string | undefined>();
  const headingId = useId();
  const switchId = useId();
  useEffect(() => {
    setValues(valuesOf(autoBuy));
    setEnabled(autoBuy?.isEnabled ?? true);
  }, [autoBuy]);
  const quantity = Number(values.quantityGb);
  const price = Number.isInteger(quantity) && quantity > 0 ? planPriceCents(plan.poolType, quantity) : null;
  const status = autoBuy ? describeAutoBuyStatus(autoBuy) : null;

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = parseAutoBuyForm(values, isEnabled);
    if ('errors' in parsed) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    setServerError(undefined);
    set.mutate(parsed.body, {
      onSuccess: () => toast.success('Auto-buy saved'),
      onError: (failure) => setServerError(errorMessage(failure, 'Failed to save the auto-buy.')),
    });
  };
  const field = (name: keyof AutoBuyFormValues) => ({
    value: values[name],
    error: errors[name],
    inputMode: 'decimal' as const,
    autoComplete: 'off',
    onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
      setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby={headingId} className="min-w-0 space-y-4 lg:pl-6">
      <div className="flex items-center gap-2">
        <RepeatIcon className="size-4 text-brand-600" aria-hidden="true" />
        <h3 id={headingId} className="font-medium text-gray-900">
          Auto-buy
        </h3>
        {status ? <Badge tone={status.tone}>{status.label}</Badge> : null}
      </div>
      <p className="text-sm text-gray-600" data-testid="auto-buy-status">
        {autoBuy
          ? `${autoBuy.boughtThisMonth} of ${autoBuy.maxPerMonth} this month.${
              autoBuy.lastRun?.outcome === 'bought' && autoBuy.lastRun.orderId
                ? ` Last bought ${formatDate(autoBuy.lastRun.at)} (order ${autoBuy.lastRun.orderId}).`
                : ''
            }`
          : 'Off: traffic is bought only when you buy it.'}
      </p>
      <div className="grid gap-4 sm:grid-cols-3 sm:items-start">
        <FormField label="Under (GB left)" placeholder="e.g. 1" {...field('thresholdGb')} />
        <FormField label="Buy (GB)" {...field('quantityGb')} />
        <FormField label="Max a month" {...field('maxPerMonth')} />
      </div>
      <p className="text-sm text-gray-500">
        {price !== null
          ? `Each buy costs ${formatUsdGrouped(price)} from your balance.`
          : 'Buy at least 5 GB at a time.'}
      </p>
      <div className="flex items-center gap-3">
        <Switch id={switchId} checked={isEnabled} onCheckedChange={setEnabled} />
        <Label htmlFor={switchId}>{isEnabled ? 'On' : 'Paused'}</Label>
      </div>
      {serverError ? (
        <p role="alert" className="text-sm text-red-600">
          {serverError}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" isLoading={set.isPending}>
          Save Auto-buy
        </Button>
        {autoBuy ? (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            isLoading={remove.isPending}
            onClick={() =>
              remove.mutate(undefined, {
                onSuccess: () => toast.success('Auto-buy removed'),
                onError: (failure) => toast.error(errorMessage(failure, 'Failed to remove the auto-buy.')),
              })
            }
          >
            Remove
          </Button>
        ) : null}
      </div>
    </form>
  );
}
