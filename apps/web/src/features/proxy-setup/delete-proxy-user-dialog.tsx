import type { ProxyUser } from '@bytegate/contracts/proxy-users';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { ApiError, errorMessage } from '../../api/api-client.ts';
import { useDeleteProxyUser } from '../../api/use-proxy-users.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent } from '../../components/ui/dialog.tsx';
import { displayName } from './proxy-user-format.ts';

const FAILED = 'Failed to delete the proxy user. Please try again.';

interface DeleteProxyUserDialogProps {
  planId: string;
  /** The user to delete; null keeps the dialog closed. */
  user: ProxyUser | null;
  onClose: () => void;
  /**
   * Where focus goes once the dialog has closed, which it cannot know (it has no trigger of its own): back
   * to the Delete button, or, when the user is gone with it, somewhere that still exists.
   */
  onFocusBack: (isDeleted: boolean) => void;
}

/** Deleting a proxy user, after a confirmation that says its login stops and its open tunnels close. */
export function DeleteProxyUserDialog({ planId, user, onClose, onFocusBack }: DeleteProxyUserDialogProps) {
  const remove = useDeleteProxyUser(planId);
  const [error, setError] = useState<string | null>(null);
  const isDeletedRef = useRef(false);

  const onConfirm = async (target: ProxyUser) => {
    setError(null);
    try {
      await remove.mutateAsync(target.id);
      toast.success(`Deleted “${displayName(target)}”`);
    } catch (failure) {
      if (!(failure instanceof ApiError && failure.status === 404)) {
        setError(errorMessage(failure, FAILED));
        return;
      }
      toast.info(`“${displayName(target)}” was already deleted`);
    }
    isDeletedRef.current = true;
    onClose();
  };

  return (
    <Dialog
      open={user !== null}
      onOpenChange={(open) => {
        if (!open) {
          setError(null);
          onClose();
        }
      }}
    >
      {user ? (
        <DialogContent
          title={`Delete “${displayName(user)}”?`}
          description={
            <>
              The login <span className="font-mono text-gray-800">{user.login}</span> stops working at once
              and its open tunnels close within 2 seconds. The traffic it used stays counted in the plan’s.
              This cannot be undone.
            </>
          }
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            onFocusBack(isDeletedRef.current);
            isDeletedRef.current = false;
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
              isLoading={remove.isPending}
              onClick={() => void onConfirm(user)}
            >
              Delete Proxy User
            </Button>
          </div>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
