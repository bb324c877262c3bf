import {
  type ChosenNotificationKind,
  NOTIFICATION_KIND_LABELS,
  NOTIFICATION_KINDS,
  type NotificationSettings,
} from '@bytegate/contracts/notifications';
import { useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useNotificationSettings, useUpdateNotificationSettings } from '../../api/use-notifications.ts';
import { Button } from '../../components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { ErrorState, LoadingRows } from '../admin/states.tsx';
import { parseLowBalance } from './notification-format.ts';

type Channel = 'email' | 'webhook';

/** The form's state: the kinds chosen for each channel and the low-balance amount as typed. */
interface Draft {
  email: Set<ChosenNotificationKind>;
  webhook: Set<ChosenNotificationKind>;
  lowBalance: string;
}

const draftOf = (settings: NotificationSettings): Draft => ({
  email: new Set(settings.emailKinds),
  webhook: new Set(settings.webhookKinds),
  lowBalance: settings.lowBalanceThresholdUsd === null ? '' : String(settings.lowBalanceThresholdUsd),
});

/**
 * Notifications (User Settings): which events reach the customer by email and which go to the webhook,
 * and the balance under which to warn. Each plan's low-traffic alert and auto-buy live on its Proxy
 * Setup page; the webhook itself in the card below.
 */
export function NotificationsCard() {
  const settings = useNotificationSettings();
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Notifications</CardTitle>
        <CardDescription>
          What we tell you of, by email and to your webhook. Low-traffic alerts and auto-buy are set per plan
          in Proxy Setup.
        </CardDescription>
      </CardHeader>
      {settings.isPending ? (
        <CardContent>
          <LoadingRows what="notification settings" rows={4} />
        </CardContent>
      ) : settings.isError ? (
        <CardContent>
          <ErrorState
            error={settings.error}
            fallback="Failed to load your notification settings."
            onRetry={() => void settings.refetch()}
            isRetrying={settings.isFetching}
          />
        </CardContent>
      ) : (
        <NotificationsForm settings={settings.data} />
      )}
    </Card>
  );
}

function NotificationsForm({ settings }: { settings: NotificationSettings }) {
  const update = useUpdateNotificationSettings();
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [amountError, setAmountError] = useState<string | undefined>();
  const hintId = useId();
  // Saved elsewhere (another tab, the webhook card's changes): the form starts again from the server's.
  useEffect(() => {
    setDraft(draftOf(settings));
  }, [settings]);
  const hasWebhook = settings.webhook !== null;

  const toggle = (channel: Channel, kind: ChosenNotificationKind, isOn: boolean) =>
    setDraft((current) => {
      const kinds = new Set(current[channel]);
      if (isOn) {
        kinds.add(kind);
      } else {
        kinds.delete(kind);
      }
      return { ...current, [channel]: kinds };
    });

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const amount = parseLowBalance(draft.lowBalance);
    if ('error' in amount) {
      setAmountError(amount.error);
      return;
    }
    setAmountError(undefined);
    update.mutate(
      {
        emailKinds: NOTIFICATION_KINDS.filter((kind) => draft.email.has(kind)),
        webhookKinds: NOTIFICATION_KINDS.filter((kind) => draft.webhook.has(kind)),
        lowBalanceThresholdUsd: amount.value,
      },
      {
        onSuccess: () => toast.success('Notification settings saved'),
        onError: (error) => toast.error(errorMessage(error, 'Failed to save your notification settings.')),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <CardContent className="space-y-6">
        <table className="w-full text-sm">
          <caption className="sr-only">Events and how each reaches you</caption>
          <thead>
            <tr className="border-b border-gray-200 text-left text-xs font-semibold tracking-wide text-gray-500 uppercase">
              <th scope="col" className="pb-2 font-semibold">
                Event
              </th>
              <th scope="col" className="w-16 pb-2 text-center font-semibold sm:w-24">
                Email
              </th>
              <th scope="col" className="w-16 pb-2 text-center font-semibold sm:w-24">
                Webhook
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            {NOTIFICATION_KINDS.map((kind) => {
              const label = NOTIFICATION_KIND_LABELS[kind];
              return (
                <tr key={kind}>
                  <th scope="row" className="py-3 pr-3 text-left font-normal">
                    <span className="block font-medium text-gray-900">{label.title}</span>
                    <span className="block text-gray-500">{label.description}</span>
                  </th>
                  {(['email', 'webhook'] as const).map((channel) => (
                    <td key={channel} className="py-3 text-center">
                      <input
                        type="checkbox"
                        aria-label={`${label.title} by ${channel === 'email' ? 'email' : 'webhook'}`}
                        checked={draft[channel].has(kind)}
                        disabled={channel === 'webhook' && !hasWebhook}
                        onChange={(event) => toggle(channel, kind, event.target.checked)}
                        className="size-4 cursor-pointer rounded border-gray-300 accent-brand-600 disabled:cursor-not-allowed"
                      />
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
        {hasWebhook ? null : (
          <p className="text-sm text-gray-500">Set a webhook below to choose what it receives.</p>
        )}
        <div className="max-w-sm">
          <FormField
            label="Low-balance warning under"
            hint="(USD, optional)"
            inputMode="decimal"
            placeholder="e.g. 10.00"
            autoComplete="off"
            value={draft.lowBalance}
            error={amountError}
            aria-describedby={hintId}
            onChange={(event) => setDraft((current) => ({ ...current, lowBalance: event.target.value }))}
          />
          <p id={hintId} className="mt-1.5 text-sm text-gray-500">
            Empty: no low-balance warning.
          </p>
        </div>
      </CardContent>
      <CardFooter>
        <Button type="submit" isLoading={update.isPending}>
          Save Changes
        </Button>
      </CardFooter>
    </form>
  );
}
