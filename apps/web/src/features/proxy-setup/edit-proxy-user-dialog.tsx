import type { Plan } from '@bytegate/contracts/billing';
import type { ProxyUser } from '@bytegate/contracts/proxy-users';
import { zodResolver } from '@hookform/resolvers/zod';
import { PencilIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useUpdateProxyUser } from '../../api/use-proxy-users.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../components/ui/dialog.tsx';
import { ProxyUserFormFields } from './proxy-user-form-fields.tsx';
import {
  changedFieldsOf,
  fieldOfError,
  formValuesOf,
  type ProxyUserFormValues,
  proxyUserFormSchema,
} from './proxy-user-form-rules.ts';
import { displayName } from './proxy-user-format.ts';

const FAILED = 'Failed to save the proxy user. Please try again.';

/** Changes a user's label, cap, thread limit and allowlist; only what changed is sent. */
export function EditProxyUserDialog({ plan, user }: { plan: Plan; user: ProxyUser }) {
  const update = useUpdateProxyUser(plan.subUserId);
  const [isOpen, setOpen] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const schema = useMemo(() => proxyUserFormSchema(plan.threads), [plan.threads]);
  const form = useForm<ProxyUserFormValues>({
    resolver: zodResolver(schema),
    defaultValues: formValuesOf(user),
  });
  const { isSubmitting } = form.formState;
  const name = displayName(user);

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    const fields = changedFieldsOf(values, user);
    if (Object.keys(fields).length === 0) {
      setOpen(false);
      return;
    }
    try {
      const saved = await update.mutateAsync({ id: user.id, fields });
      setOpen(false);
      toast.success(`Saved “${displayName(saved)}”`, {
        description: 'Open connections follow within 2 seconds.',
      });
    } catch (error) {
      const message = errorMessage(error, FAILED);
      const field = fieldOfError(error);
      if (field) {
        form.setError(field, { type: 'server', message }, { shouldFocus: true });
      } else {
        setServerError(message);
      }
    }
  });

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        // Each opening starts from the user as it is now.
        form.reset(formValuesOf(user));
        setServerError(null);
        update.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button type="button" variant="secondary" size="sm" aria-label={`Edit ${name}`}>
          <PencilIcon aria-hidden="true" />
          Edit
        </Button>
      </DialogTrigger>
      <DialogContent
        title={`Edit “${name}”`}
        description={
          <>
            Login <span className="font-mono text-gray-800">{user.login}</span>. Changes reach open
            connections within 2 seconds.
          </>
        }
        className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto"
      >
        <form onSubmit={onSubmit} noValidate className="space-y-5">
          {serverError ? <Alert tone="error">{serverError}</Alert> : null}
          <ProxyUserFormFields form={form} mode="edit" planThreads={plan.threads} />
          <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button type="button" variant="secondary">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" isLoading={isSubmitting}>
              Save Changes
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
