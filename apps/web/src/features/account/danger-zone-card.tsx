import { type DeleteAccountRequest, deleteAccountRequestSchema } from '@bytegate/contracts/account';
import { messages } from '@bytegate/contracts/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useDeleteAccount } from '../../api/use-account.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';

/** Deleting the account: confirmed with the password in a dialog; success signs out. */
export function DangerZoneCard() {
  const navigate = useNavigate();
  const deleteAccount = useDeleteAccount();
  const [isOpen, setOpen] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<DeleteAccountRequest>({
    resolver: zodResolver(deleteAccountRequestSchema),
    defaultValues: { password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await deleteAccount.mutateAsync(values);
      setOpen(false);
      toast.success('Your account has been deleted');
      void navigate('/', { replace: true });
    } catch (error) {
      const message = errorMessage(error, messages.deleteAccountFailed);
      setServerError(message);
      toast.error(message);
    }
  });

  return (
    <Card className="border-red-200">
      <CardHeader className="border-red-100">
        <CardTitle className="text-red-700">Danger Zone</CardTitle>
        <CardDescription>
          Deleting your account signs you out everywhere and stops your proxies. It cannot be undone.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-gray-600">Orders and invoices are kept for our accounting records.</p>
        <Dialog
          open={isOpen}
          onOpenChange={(open) => {
            setOpen(open);
            if (!open) {
              form.reset();
              setServerError(null);
            }
          }}
        >
          <DialogTrigger asChild>
            <Button variant="danger">Delete Account</Button>
          </DialogTrigger>
          <DialogContent
            title="Delete your account?"
            description="Enter your password to confirm. This cannot be undone."
          >
            <form onSubmit={onSubmit} noValidate className="space-y-4">
              {serverError ? <Alert tone="error">{serverError}</Alert> : null}
              <FormField
                label="Password"
                type="password"
                autoComplete="current-password"
                error={errors.password?.message}
                {...form.register('password')}
              />
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                <DialogClose asChild>
                  <Button type="button" variant="secondary">
                    Cancel
                  </Button>
                </DialogClose>
                <Button type="submit" variant="danger" isLoading={isSubmitting}>
                  Delete Account
                </Button>
              </div>
            </form>
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}
