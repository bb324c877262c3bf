import { notificationMessages, webhookUrlProblem } from '@bytegate/contracts/notifications';
import { EyeIcon, EyeOffIcon, RefreshCwIcon, SendIcon, Trash2Icon } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import {
  useNotificationSettings,
  useRemoveWebhook,
  useRotateWebhookSecret,
  useSendTestWebhook,
  useSetWebhook,
} from '../../api/use-notifications.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { CopyButton } from '../../components/ui/copy-button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { ErrorState, LoadingRows } from '../admin/states.tsx';
import { kindLabel, lastAnswer } from './notification-format.ts';
import { WebhookDeliveryLog } from './webhook-delivery-log.tsx';

/**
 * Webhook (User Settings): the endpoint every chosen notification is POSTed to as signed JSON, its
 * signing secret (shown on demand, copied, renewed), a test event, and the log of deliveries.
 */
export function WebhookCard() {
  const settings = useNotificationSettings();
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Webhook</CardTitle>
        <CardDescription>
          We POST each event you chose for the webhook to your endpoint as JSON, signed with your secret, and
          retry for 24 hours until it answers 2xx.{' '}
          <a href="/help/webhooks" className="font-medium text-brand-600 hover:underline">
            How to check signatures
          </a>
        </CardDescription>
      </CardHeader>
      {settings.isPending ? (
        <CardContent>
          <LoadingRows what="the webhook" rows={2} />
        </CardContent>
      ) : settings.isError ? (
        <CardContent>
          <ErrorState
            error={settings.error}
            fallback="Failed to load your webhook."
            onRetry={() => void settings.refetch()}
            isRetrying={settings.isFetching}
          />
        </CardContent>
      ) : (
        <WebhookSettings webhook={settings.data.webhook} />
      )}
    </Card>
  );
}

function WebhookSettings({ webhook }: { webhook: { url: string; secret: string } | null }) {
  const setWebhook = useSetWebhook();
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [urlError, setUrlError] = useState<string | undefined>();
  useEffect(() => {
    setUrl(webhook?.url ?? '');
  }, [webhook?.url]);

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const trimmed = url.trim();
    const problem = trimmed ? webhookUrlProblem(trimmed) : notificationMessages.webhookUrlFormat;
    if (problem) {
      setUrlError(problem);
      return;
    }
    setUrlError(undefined);
    setWebhook.mutate(trimmed, {
      onSuccess: () =>
        toast.success(webhook ? 'Webhook address saved' : 'Webhook set: choose what it receives above'),
      onError: (error) => setUrlError(errorMessage(error, 'Failed to save the webhook address.')),
    });
  };

  return (
    <CardContent className="space-y-6">
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <FormField
            label="Endpoint URL"
            type="url"
            inputMode="url"
            placeholder="https://example.com/hooks/bytegate"
            autoComplete="off"
            spellCheck={false}
            value={url}
            error={urlError}
            onChange={(event) => setUrl(event.target.value)}
          />
        </div>
        <Button type="submit" className="sm:mt-7" isLoading={setWebhook.isPending}>
          {webhook ? 'Save Address' : 'Set Webhook'}
        </Button>
      </form>
      {webhook ? <WebhookActions secret={webhook.secret} /> : null}
      {webhook ? <WebhookDeliveryLog /> : null}
    </CardContent>
  );
}

function WebhookActions({ secret }: { secret: string }) {
  const [isShown, setShown] = useState(false);
  const [isRemoving, setRemoving] = useState(false);
  const rotate = useRotateWebhookSecret();
  const remove = useRemoveWebhook();
  const sendTest = useSendTestWebhook();
  const secretId = useId();
  const masked = `${secret.slice(0, 6)}${'•'.repeat(24)}`;

  return (
    <div className="space-y-4 rounded-lg border border-gray-200 p-4">
      <div className="space-y-1.5">
        <p id={secretId} className="text-sm font-medium text-gray-800">
          Signing secret
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <code
            data-testid="webhook-secret"
            className="min-w-0 flex-1 rounded-md bg-gray-100 px-2.5 py-1.5 font-mono text-sm break-all text-gray-800"
          >
            {isShown ? secret : masked}
          </code>
          <div className="flex gap-1">
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={isShown ? 'Hide signing secret' : 'Show signing secret'}
              aria-pressed={isShown}
              onClick={() => setShown((shown) => !shown)}
            >
              {isShown ? <EyeOffIcon aria-hidden="true" /> : <EyeIcon aria-hidden="true" />}
            </Button>
            <CopyButton text={secret} what="signing secret" variant="ghost" />
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label="Renew signing secret"
              disabled={rotate.isPending}
              onClick={() =>
                rotate.mutate(undefined, {
                  onSuccess: () => toast.success('New signing secret made: update your endpoint'),
                  onError: (error) => toast.error(errorMessage(error, 'Failed to renew the secret.')),
                })
              }
            >
              <RefreshCwIcon aria-hidden="true" />
            </Button>
          </div>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="secondary"
          size="sm"
          isLoading={sendTest.isPending}
          onClick={() =>
            sendTest.mutate(undefined, {
              onSuccess: (delivery) =>
                delivery.status === 'delivered'
                  ? toast.success(`${kindLabel(delivery.kind)} delivered: ${lastAnswer(delivery)}`)
                  : toast.error(`${kindLabel(delivery.kind)} not delivered: ${lastAnswer(delivery)}`),
              onError: (error) => toast.error(errorMessage(error, 'Failed to send the test event.')),
            })
          }
        >
          <SendIcon aria-hidden="true" />
          Send Test Event
        </Button>
        {isRemoving ? (
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-sm text-gray-700">Remove the webhook and its secret?</span>
            <Button
              type="button"
              variant="danger"
              size="sm"
              isLoading={remove.isPending}
              onClick={() =>
                remove.mutate(undefined, {
                  onSuccess: () => toast.success('Webhook removed'),
                  onError: (error) => toast.error(errorMessage(error, 'Failed to remove the webhook.')),
                })
              }
            >
              Remove
            </Button>
            <Button type="button" variant="ghost" size="sm" onClick={() => setRemoving(false)}>
              Cancel
            </Button>
          </div>
        ) : (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            className="text-red-700 hover:bg-red-50 hover:text-red-800"
            onClick={() => setRemoving(true)}
          >
            <Trash2Icon aria-hidden="true" />
            Remove Webhook
          </Button>
        )}
      </div>
    </div>
  );
}
