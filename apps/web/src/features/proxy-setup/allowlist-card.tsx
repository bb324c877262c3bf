import { allowlistAddressSchema } from '@bytegate/contracts/allowlist';
import { PlusIcon, Trash2Icon } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useAddAllowlistAddress, useAllowlist, useRemoveAllowlistAddress } from '../../api/use-allowlist.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';

/** IP Allowlist: client addresses that use the plan with no username or password. */
export function AllowlistCard({ planId }: { planId: string }) {
  const allowlist = useAllowlist(planId);
  const add = useAddAllowlistAddress(planId);
  const remove = useRemoveAllowlistAddress(planId);
  const [address, setAddress] = useState('');
  const [error, setError] = useState<string>();
  const inputId = useId();
  const errorId = useId();

  const submit = (value: string) => {
    const parsed = allowlistAddressSchema.safeParse(value);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    add.mutate(parsed.data, {
      onSuccess: (entry) => {
        setAddress('');
        toast.success(
          entry.verified
            ? `${entry.address} can now use this plan without credentials`
            : `${entry.address} added: it needs no credentials once you add it again while connecting from it`,
        );
      },
      onError: (cause) => setError(errorMessage(cause, 'Failed to add the address')),
    });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit(address);
  };

  const entries = allowlist.data?.addresses ?? [];
  const clientAddress = allowlist.data?.clientAddress;
  const isFull = allowlist.data ? entries.length >= allowlist.data.max : false;
  // Adding the address this browser connects from proves it (again, if it was typed in from elsewhere).
  const canAddMine =
    clientAddress && !entries.some((entry) => entry.address === clientAddress && entry.verified);

  return (
    <Card>
      <CardHeader>
        <CardTitle>IP Allowlist</CardTitle>
        <CardDescription>
          Connections from these public addresses need no username or password once the address is proved: add
          it while connecting from it. An address goes on one of your plans; the gateway applies changes
          within a second.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <form onSubmit={onSubmit} noValidate className="space-y-1.5">
          <Label htmlFor={inputId}>IPv4 or IPv6 address</Label>
          <div className="flex gap-2">
            <Input
              id={inputId}
              value={address}
              placeholder="203.0.113.7"
              spellCheck={false}
              autoComplete="off"
              onChange={(event) => setAddress(event.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              disabled={isFull}
            />
            <Button type="submit" isLoading={add.isPending} disabled={isFull}>
              <PlusIcon aria-hidden="true" />
              Add
            </Button>
          </div>
          {error ? (
            <p id={errorId} role="alert" className="text-sm text-red-600">
              {error}
            </p>
          ) : null}
          {canAddMine && !isFull ? (
            <p className="text-sm text-gray-500">
              You are connecting from <span className="font-mono">{clientAddress}</span>.{' '}
              <button
                type="button"
                className="font-medium text-brand-600 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
                onClick={() => submit(clientAddress)}
              >
                Add it
              </button>
            </p>
          ) : null}
        </form>

        {allowlist.isPending ? (
          <div className="space-y-2">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : allowlist.isError ? (
          <Alert tone="error" className="flex items-center justify-between gap-3">
            <span>Failed to load the allowlist.</span>
            <Button type="button" variant="secondary" size="sm" onClick={() => void allowlist.refetch()}>
              Retry
            </Button>
          </Alert>
        ) : entries.length === 0 ? (
          <p className="rounded-lg border border-dashed border-gray-200 px-4 py-6 text-center text-sm text-gray-500">
            No addresses yet. Add your server's public IP to connect without credentials.
          </p>
        ) : (
          <ul
            aria-label="Allowlisted addresses"
            className="divide-y divide-gray-100 rounded-lg border border-gray-200"
          >
            {entries.map((entry) => (
              <li key={entry.address} className="flex items-center justify-between gap-3 px-4 py-2.5">
                <span className="min-w-0 flex-1 truncate font-mono text-sm text-gray-900">
                  {entry.address}
                  {entry.verified ? null : (
                    <span className="ml-2 font-sans text-xs text-amber-700">
                      not proved yet: add it again from this address
                    </span>
                  )}
                </span>
                <span className="hidden shrink-0 text-xs text-gray-500 sm:inline">
                  added {new Date(entry.createdAt).toLocaleDateString()}
                </span>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove ${entry.address}`}
                  disabled={remove.isPending && remove.variables === entry.address}
                  onClick={() =>
                    remove.mutate(entry.address, {
                      onSuccess: () => toast.success(`Removed ${entry.address}`),
                      onError: (cause) => toast.error(errorMessage(cause, 'Failed to remove the address')),
                    })
                  }
                >
                  <Trash2Icon aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
        {isFull ? (
          <p className="text-sm text-gray-500">
            This plan's allowlist is full: remove an address to add another.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
