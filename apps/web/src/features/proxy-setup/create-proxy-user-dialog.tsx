import type { Plan } from '@bytegate/contracts/billing';
import type { ProxyUser } from '@bytegate/contracts/proxy-users';
import { zodResolver } from '@hookform/resolvers/zod';
import { PlusIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useCreateProxyUser } from '../../api/use-proxy-users.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../components/ui/dialog.tsx';
import { ProxyUserFormFields } from './proxy-user-form-fields.tsx';
import {
  createBodyOf,
  EMPTY_FORM,
  fieldOfError,
  type ProxyUserFormValues,
  proxyUserFormSchema,
} from './proxy-user-form-rules.ts';
import { displayName } from './proxy-user-format.ts';

const FAILED = 'Failed to create the proxy user. Please try again.';

/**
 * "Create Proxy User": an optional label and login, a traffic cap, a thread limit and an allowlist,
 * checked with the server's rules and messages before sending; a refusal shows under its field.
 */
export function CreateProxyUserDialog({
  plan,
  onCreated,
}: {
  plan: Plan;
  /** The new user, to show it: the dialog has closed by then. */
  onCreated: (user: ProxyUser) => void;
}) {
  const create = useCreateProxyUser(plan.subUserId);
  const [isOpen, setOpen] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const schema = useMemo(() => proxyUserFormSchema(plan.threads), [plan.threads]);
  const form = useForm<ProxyUserFormValues>({ resolver: zodResolver(schema), defaultValues: EMPTY_FORM });
  const { isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      const created = await create.mutateAsync(createBodyOf(values));
      setOpen(false);
      form.reset(EMPTY_FORM);
      toast.success(`Proxy user “${displayName(created)}” created`);
      onCreated(created);
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
        if (!open) {
          form.reset(EMPTY_FORM);
          setServerError(null);
          create.reset();
        }
      }}
    >
      <DialogTrigger asChild>
        <Button type="button" size="sm">
          <PlusIcon aria-hidden="true" />
          Create Proxy User
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Create Proxy User"
        description="A login of its own under this plan, with its own limits. Its traffic counts in the plan’s."
        className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto"
      >
        <form onSubmit={onSubmit} noValidate className="space-y-5">
          {serverError ? <Alert tone="error">{serverError}</Alert> : null}
          <ProxyUserFormFields form={form} mode="create" planThreads={plan.threads} />
          <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button type="button" variant="secondary">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" isLoading={isSubmitting}>
              Create User
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
