import type { Plan } from '@bytegate/contracts/billing';
import { RefreshCwIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useRegeneratePassword } from '../../api/use-plans.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../components/ui/dialog.tsx';

const FAILED = 'Failed to change the password. Please try again.';

/** A new proxy password, after a confirmation that says what happens to the old one. */
export function RegeneratePasswordDialog({ plan }: { plan: Plan }) {
  const regenerate = useRegeneratePassword();
  const [isOpen, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onConfirm = async () => {
    setError(null);
    try {
      await regenerate.mutateAsync(plan);
      setOpen(false);
      toast.success('New proxy password set');
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
        <Button type="button" variant="ghost" size="icon" aria-label="New password">
          <RefreshCwIcon aria-hidden="true" />
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Set a new proxy password?"
        description="The current password stops working at once, and connections made with it are closed within a few seconds. Update your tools with the new one."
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
