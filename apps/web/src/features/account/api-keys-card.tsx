import { API_KEY_SCOPE_LABELS, type ApiKey } from '@bytegate/contracts/api-keys';
import { ExternalLinkIcon, KeyRoundIcon } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useApiKeys } from '../../api/use-api-keys.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { formatDate } from '../admin/format.ts';
import { EmptyState, ErrorState, LoadingRows } from '../admin/states.tsx';
import { describeExpiry, describeLastUse, shownPrefix } from './api-key-format.ts';
import { CreateApiKeyDialog } from './create-api-key-dialog.tsx';
import { RevokeApiKeyDialog } from './revoke-api-key-dialog.tsx';

/**
 * API Keys: the keys the account's own programs call the public API (`/api/v1`) with, each with its
 * scopes, expiry and last use; created with the password (the secret is shown once) and revoked here.
 */
export function ApiKeysCard() {
  const keys = useApiKeys();
  const titleId = useId();
  const titleRef = useRef<HTMLHeadingElement>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const revokeButtonRef = useRef<HTMLButtonElement | null>(null);

  return (
    <Card aria-labelledby={titleId}>
      <CardHeader className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <CardTitle id={titleId} ref={titleRef} tabIndex={-1} className="focus:outline-none">
            API Keys
          </CardTitle>
          <CardDescription>
            Keys let your scripts and servers use the public API at{' '}
            <code className="font-mono text-gray-700">/api/v1</code>, each only for what its scopes allow.{' '}
            <a
              href="/api/docs"
              target="_blank"
              rel="noreferrer"
              className="inline-flex items-center gap-1 font-medium text-brand-600 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
            >
              API reference
              <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </CardDescription>
        </div>
        <CreateApiKeyDialog />
      </CardHeader>
      {keys.isPending ? (
        <CardContent>
          <LoadingRows what="API keys" rows={2} />
        </CardContent>
      ) : keys.isError ? (
        <CardContent>
          <ErrorState
            error={keys.error}
            fallback="Failed to load your API keys."
            onRetry={() => void keys.refetch()}
            isRetrying={keys.isFetching}
          />
        </CardContent>
      ) : keys.data.length === 0 ? (
        <EmptyState icon={KeyRoundIcon} title="No API keys yet">
          Create one to call the API from your own code. Its secret is shown once, when you create it.
        </EmptyState>
      ) : (
        <ul aria-label="API keys" className="divide-y divide-gray-100">
          {keys.data.map((key) => (
            <ApiKeyRow
              key={key.id}
              apiKey={key}
              onRevoke={(button) => {
                revokeButtonRef.current = button;
                setRevoking(key);
              }}
            />
          ))}
        </ul>
      )}
      <RevokeApiKeyDialog
        apiKey={revoking}
        onClose={() => setRevoking(null)}
        // A revoked key's row is gone with its button: focus goes to the card's title, from where the
        // list reads on.
        onFocusBack={(isRevoked) => (isRevoked ? titleRef.current : revokeButtonRef.current)?.focus()}
      />
    </Card>
  );
}

function ApiKeyRow({
  apiKey,
  onRevoke,
}: {
  apiKey: ApiKey;
  /** Opens the confirmation; `button` is where focus returns if it is cancelled. */
  onRevoke: (button: HTMLButtonElement) => void;
}) {
  const lastUse = describeLastUse(apiKey);
  return (
    <li className="grid gap-x-6 gap-y-3 px-5 py-4 sm:grid-cols-[minmax(0,1fr)_auto] sm:px-6">
      <div className="min-w-0 space-y-2">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <h3 className="min-w-0 font-medium break-words text-gray-900">{apiKey.name}</h3>
          <code className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-xs text-gray-700">
            {shownPrefix(apiKey)}
          </code>
        </div>
        <ul aria-label="Scopes" className="flex flex-wrap gap-1.5">
          {apiKey.scopes.map((scope) => (
            <li key={scope}>
              <Badge tone="brand" title={API_KEY_SCOPE_LABELS[scope].description}>
                {API_KEY_SCOPE_LABELS[scope].title}
              </Badge>
            </li>
          ))}
        </ul>
      </div>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:col-start-1 sm:max-w-xl sm:grid-cols-3">
        <div>
          <dt className="text-xs text-gray-500">Created</dt>
          <dd className="text-gray-900">
            <time dateTime={apiKey.createdAt}>{formatDate(apiKey.createdAt)}</time>
          </dd>
        </div>
        <div>
          <dt className="text-xs text-gray-500">Expires</dt>
          <dd className="text-gray-900">
            {apiKey.isExpired ? (
              <Badge tone="danger">{describeExpiry(apiKey)}</Badge>
            ) : apiKey.expiresAt ? (
              <time dateTime={apiKey.expiresAt}>{describeExpiry(apiKey)}</time>
            ) : (
              describeExpiry(apiKey)
            )}
          </dd>
        </div>
        <div className="col-span-2 sm:col-span-1">
          <dt className="text-xs text-gray-500">Last used</dt>
          <dd className="text-gray-900">
            {apiKey.lastUsedAt ? <time dateTime={apiKey.lastUsedAt}>{lastUse.when}</time> : lastUse.when}
            {lastUse.from ? (
              <span className="text-gray-500">
                {' '}
                from <span className="font-mono text-xs">{lastUse.from}</span>
              </span>
            ) : null}
          </dd>
        </div>
      </dl>
      <div className="sm:col-start-2 sm:row-span-2 sm:row-start-1">
        <Button
          type="button"
          variant="secondary"
          size="sm"
          aria-label={`Revoke ${apiKey.name}`}
          className="text-red-700 hover:bg-red-50"
          onClick={(event) => onRevoke(event.currentTarget)}
        >
          Revoke
        </Button>
      </div>
    </li>
  );
}
