import type {
  NotificationSettings,
  PlanAutomation,
  SetAutoBuyRequest,
  SetLowTrafficAlertRequest,
  UpdateNotificationSettingsRequest,
} from '@bytegate/contracts/notifications';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notificationsApi } from './notifications-client.ts';
import { queryKeys } from './query-keys.ts';

/** What the account is told of by email and webhook, its low-balance amount and its webhook. */
export function useNotificationSettings() {
  return useQuery({ queryKey: queryKeys.notificationSettings, queryFn: () => notificationsApi.settings() });
}

/** Every change to the settings answers them whole: the cache takes the answer as it is. */
function useSettingsMutation<T>(call: (input: T) => Promise<NotificationSettings>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (settings) => queryClient.setQueryData(queryKeys.notificationSettings, settings),
  });
}

export const useUpdateNotificationSettings = () =>
  useSettingsMutation((body: UpdateNotificationSettingsRequest) => notificationsApi.updateSettings(body));
export const useSetWebhook = () => useSettingsMutation((url: string) => notificationsApi.setWebhook(url));
export const useRemoveWebhook = () => useSettingsMutation<void>(() => notificationsApi.removeWebhook());
export const useRotateWebhookSecret = () => useSettingsMutation<void>(() => notificationsApi.rotateSecret());

/** The webhook's delivery log, newest first, a page of 20 at a time. */
export function useWebhookDeliveries(isEnabled: boolean) {
  return useInfiniteQuery({
    queryKey: queryKeys.webhookDeliveries,
    queryFn: ({ pageParam }) => notificationsApi.deliveries(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    enabled: isEnabled,
    // Deliveries settle in the background (retries): the log keeps up while it is open.
    refetchInterval: 15_000,
  });
}

export function useSendTestWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => notificationsApi.sendTest(),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhookDeliveries }),
  });
}

/** A plan's low-traffic alert and auto-buy. */
export function usePlanAutomation(planId: string) {
  return useQuery({
    queryKey: queryKeys.planAutomation(planId),
    queryFn: () => notificationsApi.automation(planId),
  });
}

function useAutomationMutation<T>(planId: string, call: (input: T) => Promise<PlanAutomation>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (automation) => queryClient.setQueryData(queryKeys.planAutomation(planId), automation),
  });
}

export const useSetLowTrafficAlert = (planId: string) =>
  useAutomationMutation(planId, (body: SetLowTrafficAlertRequest) =>
    notificationsApi.setLowTrafficAlert(planId, body),
  );
export const useRemoveLowTrafficAlert = (planId: string) =>
  useAutomationMutation<void>(planId, () => notificationsApi.removeLowTrafficAlert(planId));
export const useSetAutoBuy = (planId: string) =>
  useAutomationMutation(planId, (body: SetAutoBuyRequest) => notificationsApi.setAutoBuy(planId, body));
export const useRemoveAutoBuy = (planId: string) =>
  useAutomationMutation<void>(planId, () => notificationsApi.removeAutoBuy(planId));
