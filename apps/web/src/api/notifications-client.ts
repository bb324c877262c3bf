import type {
  NotificationSettings,
  PlanAutomation,
  SetAutoBuyRequest,
  SetLowTrafficAlertRequest,
  UpdateNotificationSettingsRequest,
  WebhookDeliveriesResponse,
  WebhookDelivery,
} from '@bytegate/contracts/notifications';
import { defineApiSection } from './api-client.ts';

// Notifications (issue 18): what the account is told of and how, its webhook, and each plan's
// low-traffic alert and auto-buy. A section of its own: only the dashboard loads it.

const planPath = (planId: string, rest: string) => `/plans/${encodeURIComponent(planId)}/${rest}`;

export const notificationsApi = defineApiSection((request) => ({
  settings: () => request<NotificationSettings>('GET', '/notifications/settings'),
  updateSettings: (body: UpdateNotificationSettingsRequest) =>
    request<NotificationSettings>('PUT', '/notifications/settings', { body }),
  setWebhook: (url: string) =>
    request<NotificationSettings>('PUT', '/notifications/webhook', { body: { url } }),
  removeWebhook: () => request<NotificationSettings>('DELETE', '/notifications/webhook'),
  rotateSecret: () =>
    request<NotificationSettings>('POST', '/notifications/webhook/rotate-secret', { body: {} }),
  sendTest: () => request<WebhookDelivery>('POST', '/notifications/webhook/test', { body: {} }),
  deliveries: (cursor: string | null) =>
    request<WebhookDeliveriesResponse>(
      'GET',
      `/notifications/webhook/deliveries${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
    ),
  automation: (planId: string) => request<PlanAutomation>('GET', planPath(planId, 'automation')),
  setLowTrafficAlert: (planId: string, body: SetLowTrafficAlertRequest) =>
    request<PlanAutomation>('PUT', planPath(planId, 'low-traffic-alert'), { body }),
  removeLowTrafficAlert: (planId: string) =>
    request<PlanAutomation>('DELETE', planPath(planId, 'low-traffic-alert')),
  setAutoBuy: (planId: string, body: SetAutoBuyRequest) =>
    request<PlanAutomation>('PUT', planPath(planId, 'auto-buy'), { body }),
  removeAutoBuy: (planId: string) => request<PlanAutomation>('DELETE', planPath(planId, 'auto-buy')),
}));
