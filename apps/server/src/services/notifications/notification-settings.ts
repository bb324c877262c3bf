import { centsToDollars, decimalToCents } from '@bytegate/contracts/money';
import {
  type ChosenNotificationKind,
  NOTIFICATION_KINDS,
  type NotificationSettings,
  notificationMessages,
  type UpdateNotificationSettingsRequest,
} from '@bytegate/contracts/notifications';
import type { Executor } from '@bytegate/db';
import {
  getNotificationSettings,
  type NotificationSettingsRow,
  upsertNotificationSettings,
} from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { createWebhookSecret } from './webhook-signature.ts';
import { checkWebhookHost } from './webhook-target.ts';

/** Until a customer chooses: every kind by email, and every kind to a webhook once one is set. */
export const DEFAULT_NOTIFICATION_KINDS = {
  emailKinds: [...NOTIFICATION_KINDS],
  webhookKinds: [...NOTIFICATION_KINDS],
};

/** The kinds an account gets by each channel, and its webhook (defaults when it never chose). */
export function channelsOf(row: NotificationSettingsRow | null): {
  emailKinds: ChosenNotificationKind[];
  webhookKinds: ChosenNotificationKind[];
  webhook: { url: string; secret: string } | null;
} {
  return {
    emailKinds: (row?.emailKinds ?? DEFAULT_NOTIFICATION_KINDS.emailKinds).filter(isChosenKind),
    webhookKinds: (row?.webhookKinds ?? DEFAULT_NOTIFICATION_KINDS.webhookKinds).filter(isChosenKind),
    webhook: row?.webhookUrl && row.webhookSecret ? { url: row.webhookUrl, secret: row.webhookSecret } : null,
  };
}

const isChosenKind = (kind: string): kind is ChosenNotificationKind =>
  (NOTIFICATION_KINDS as readonly string[]).includes(kind);

export function presentNotificationSettings(row: NotificationSettingsRow | null): NotificationSettings {
  const { emailKinds, webhookKinds, webhook } = channelsOf(row);
  return {
    emailKinds,
    webhookKinds,
    lowBalanceThresholdUsd:
      row?.lowBalanceThresholdCents == null ? null : centsToDollars(row.lowBalanceThresholdCents),
    webhook,
  };
}

export async function getOwnNotificationSettings(
  db: Executor,
  params: { userId: string },
): Promise<NotificationSettings> {
  return presentNotificationSettings(await getNotificationSettings(db, params));
}

/** Keeps each kind once, in the catalogue's order. */
const kindsInOrder = (kinds: readonly ChosenNotificationKind[]) =>
  NOTIFICATION_KINDS.filter((kind) => kinds.includes(kind));

export async function updateOwnNotificationSettings(
  ctx: ServiceContext,
  params: { userId: string; body: UpdateNotificationSettingsRequest },
): Promise<NotificationSettings> {
  const { body } = params;
  const set: Parameters<typeof upsertNotificationSettings>[1]['set'] = {};
  if (body.emailKinds) {
    set.emailKinds = kindsInOrder(body.emailKinds);
  }
  if (body.webhookKinds) {
    set.webhookKinds = kindsInOrder(body.webhookKinds);
  }
  if (body.lowBalanceThresholdUsd !== undefined) {
    set.lowBalanceThresholdCents =
      body.lowBalanceThresholdUsd === null ? null : decimalToCents(String(body.lowBalanceThresholdUsd));
  }
  const row = await upsertNotificationSettings(ctx.db, {
    userId: params.userId,
    defaults: DEFAULT_NOTIFICATION_KINDS,
    set,
  });
  return presentNotificationSettings(row);
}

/**
 * Sets the webhook's address (a signing secret is made the first time, and kept when the address
 * changes). The host must resolve to public addresses (unless WEBHOOKS_ALLOW_PRIVATE_TARGETS): checked
 * here for a clear answer, and again at every delivery.
 */
export async function setOwnWebhook(
  ctx: ServiceContext,
  params: { userId: string; url: string },
): Promise<NotificationSettings> {
  const problem = await checkWebhookHost(params.url, ctx.config.webhooks.allowPrivateTargets);
  if (problem) {
    throw new DomainError('VALIDATION_FAILED', problem, { field: 'url' });
  }
  const existing = await getNotificationSettings(ctx.db, { userId: params.userId });
  const row = await upsertNotificationSettings(ctx.db, {
    userId: params.userId,
    defaults: DEFAULT_NOTIFICATION_KINDS,
    set: { webhookUrl: params.url, webhookSecret: existing?.webhookSecret ?? createWebhookSecret() },
  });
  return presentNotificationSettings(row);
}

/** Removes the webhook and its secret: deliveries still pending then fail with a note saying so. */
export async function removeOwnWebhook(
  ctx: ServiceContext,
  params: { userId: string },
): Promise<NotificationSettings> {
  const row = await upsertNotificationSettings(ctx.db, {
    userId: params.userId,
    defaults: DEFAULT_NOTIFICATION_KINDS,
    set: { webhookUrl: null, webhookSecret: null },
  });
  return presentNotificationSettings(row);
}

/** A new signing secret; the old one stops signing at once. */
export async function rotateOwnWebhookSecret(
  ctx: ServiceContext,
  params: { userId: string },
): Promise<NotificationSettings> {
  const existing = await getNotificationSettings(ctx.db, { userId: params.userId });
  if (!existing?.webhookUrl) {
    throw new DomainError('CONFLICT', notificationMessages.webhookMissing);
  }
  const row = await upsertNotificationSettings(ctx.db, {
    userId: params.userId,
    defaults: DEFAULT_NOTIFICATION_KINDS,
    set: { webhookSecret: createWebhookSecret() },
  });
  return presentNotificationSettings(row);
}
