import type { ApiKey } from '@bytegate/contracts/api-keys';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { ApiError, errorMessage } from '../../api/api-client.ts';
import { useRevokeApiKey } from '../../api/use-api-keys.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent } from '../../components/ui/dialog.tsx';

const FAILED = 'Failed to revoke the API key. Please try again.';

interface RevokeApiKeyDialogProps {
  /** The key to revoke; null keeps the dialog closed. */
  apiKey: ApiKey | null;
  onClose: () => void;
  /**
   * Where focus goes once the dialog has closed, which it cannot know (it has no trigger of its own): back
   * to the key's Revoke button, or, when the key is gone with its row, somewhere that still exists.
   */
  onFocusBack: (isRevoked: boolean) => void;
}

/** Revoking a key, after a confirmation that says programs using it stop working at once. */
export function RevokeApiKeyDialog({ apiKey, onClose, onFocusBack }: RevokeApiKeyDialogProps) {
  const revoke = useRevokeApiKey();
  const [error, setError] = useState<string | null>(null);
  const isRevokedRef = useRef(false);

  const onConfirm = async (key: ApiKey) => {
    setError(null);
    try {
      await revoke.mutateAsync(key.id);
      toast.success(`Revoked “${key.name}”`);
    } catch (failure) {
      if (!(failure instanceof ApiError && failure.status === 404)) {
        setError(errorMessage(failure, FAILED));
        return;
      }
      toast.info(`“${key.name}” was already revoked`);
    }
    isRevokedRef.current = true;
    onClose();
  };

  return (
    <Dialog
      open={apiKey !== null}
      onOpenChange={(open) => {
        if (!open) {
          setError(null);
          onClose();
        }
      }}
    >
      {apiKey ? (
        <DialogContent
          title={`Revoke “${apiKey.name}”?`}
          description="Programs using this key are refused from their next request on. This cannot be undone: to use the API again, create a new key."
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            onFocusBack(isRevokedRef.current);
            isRevokedRef.current = false;
          }}
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
            <Button
              type="button"
              variant="danger"
              isLoading={revoke.isPending}
              onClick={() => void onConfirm(apiKey)}
            >
              Revoke Key
            </Button>
          </div>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
