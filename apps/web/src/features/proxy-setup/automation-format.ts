import type {
  PlanAutomation,
  SetAutoBuyRequest,
  SetLowTrafficAlertRequest,
} from '@bytegate/contracts/notifications';
import {
  notificationMessages,
  setAutoBuyRequestSchema,
  setLowTrafficAlertRequestSchema,
} from '@bytegate/contracts/notifications';

export type AlertMode = 'gb' | 'percent';

/** The alert form as typed: which kind of threshold and its number. */
export function parseAlertForm(
  mode: AlertMode,
  text: string,
): { body: SetLowTrafficAlertRequest } | { error: string } {
  const trimmed = text.trim();
  const value = trimmed === '' ? Number.NaN : Number(trimmed);
  if (!Number.isFinite(value)) {
    return {
      error: mode === 'gb' ? notificationMessages.alertGbFormat : notificationMessages.alertPercentFormat,
    };
  }
  const body = mode === 'gb' ? { thresholdGb: value } : { thresholdPercent: value };
  const parsed = setLowTrafficAlertRequestSchema.safeParse(body);
  return parsed.success
    ? { body }
    : { error: parsed.error.issues[0]?.message ?? notificationMessages.alertGbFormat };
}

export interface AutoBuyFormValues {
  thresholdGb: string;
  quantityGb: string;
  maxPerMonth: string;
}

/** The auto-buy form as typed, checked with the server's rules; errors by field. */
export function parseAutoBuyForm(
  values: AutoBuyFormValues,
  isEnabled: boolean,
): { body: SetAutoBuyRequest } | { errors: Partial<Record<keyof AutoBuyFormValues, string>> } {
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim()));
  const body = {
    thresholdGb: number(values.thresholdGb),
    quantityGb: number(values.quantityGb),
    maxPerMonth: number(values.maxPerMonth),
    isEnabled,
  };
  const parsed = setAutoBuyRequestSchema.safeParse(body);
  if (parsed.success) {
    return { body };
  }
  const errors: Partial<Record<keyof AutoBuyFormValues, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof AutoBuyFormValues;
    errors[field] ??= issue.message;
  }
  return { errors };
}

/** What the low-traffic alert does now, in a sentence. */
export function describeAlert(alert: PlanAutomation['lowTraffic']): string {
  if (!alert) {
    return 'Off: no warning when traffic runs low.';
  }
  const when =
    alert.thresholdGb !== null
      ? `under ${alert.thresholdGb.toLocaleString('en-US')} GB left`
      : `at ${alert.thresholdPercent}% of the traffic used`;
  return alert.isTriggered
    ? `Below the threshold now (${when}): it warns again once you add traffic and it falls there again.`
    : `Warns you ${when}, once each time.`;
}

/** Where the auto-buy stands, in a few words and a tone. */
export function describeAutoBuyStatus(autoBuy: NonNullable<PlanAutomation['autoBuy']>): {
  label: string;
  tone: 'success' | 'warning' | 'danger' | 'neutral';
} {
  if (!autoBuy.isEnabled) {
    return { label: 'Paused', tone: 'neutral' };
  }
  switch (autoBuy.status) {
    case 'armed':
      return { label: 'Armed', tone: 'success' };
    case 'bought':
      return { label: 'Bought', tone: 'success' };
    case 'insufficient_balance':
      return { label: 'Waiting for balance', tone: 'danger' };
    default:
      return { label: 'Monthly limit reached', tone: 'warning' };
  }
}
