import type { ProxyUser } from '@bytegate/contracts/proxy-users';
import { RefreshCwIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useRegenerateProxyUserPassword } from '../../api/use-proxy-users.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../components/ui/dialog.tsx';
import { displayName } from './proxy-user-format.ts';

const FAILED = 'Failed to change the password. Please try again.';

/** A new password for a proxy user, after a confirmation that says what happens to the old one. */
export function RegenerateProxyUserPasswordDialog({ planId, user }: { planId: string; user: ProxyUser }) {
  const regenerate = useRegenerateProxyUserPassword(planId);
  const [isOpen, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = displayName(user);

  const onConfirm = async () => {
    setError(null);
    try {
      await regenerate.mutateAsync(user.id);
      setOpen(false);
      toast.success(`New password set for “${name}”`);
    } catch (failure) {
      setError(errorMessage(failure, FAILED));
    }
  };

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        setError(null);
      }}
    >
      <DialogTrigger asChild>
        <Button type="button" variant="ghost" size="icon" aria-label="New password" title="New password">
          <RefreshCwIcon aria-hidden="true" />
        </Button>
      </DialogTrigger>
      <DialogContent
        title={`Set a new password for “${name}”?`}
        description="The current password stops working at once, and tunnels opened with it close within 2 seconds. Update the tools that use it with the new one."
      >
        {error ? (
          <Alert tone="error" className="mb-4">
            {error}
          </Alert>
        ) : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <DialogClose asChild>
            <Button type="button" variant="secondary">
              Cancel
            </Button>
          </DialogClose>
          <Button type="button" isLoading={regenerate.isPending} onClick={() => void onConfirm()}>
            Set New Password
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
