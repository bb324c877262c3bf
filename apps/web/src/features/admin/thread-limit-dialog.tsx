import {
  type AdminPlan,
  type ChangeThreadLimitRequest,
  changeThreadLimitRequestSchema,
  MAX_THREAD_LIMIT,
  MIN_THREAD_LIMIT,
} from '@bytegate/contracts/admin';
import { POOL_NAMES } from '@bytegate/contracts/pools';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useChangeThreadLimit } from '../../api/use-admin.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { formatInteger } from './format.ts';
import { ReasonField } from './reason-field.tsx';

/** Sets how many connections a plan may hold open at once, with a reason. */
export function ThreadLimitDialog({ userId, plan }: { userId: string; plan: AdminPlan }) {
  const [isOpen, setOpen] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const change = useChangeThreadLimit(userId);
  const form = useForm<ChangeThreadLimitRequest>({
    resolver: zodResolver(changeThreadLimitRequestSchema),
    defaultValues: { threadLimit: plan.threadLimit, reason: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const reason = form.watch('reason') ?? '';
  const poolName = POOL_NAMES[plan.poolType];

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      const { plan: updated } = await change.mutateAsync({ ...values, planId: plan.id });
      setOpen(false);
      toast.success(`${poolName} thread limit set to ${formatInteger(updated.threadLimit)}`);
    } catch (error) {
      setServerError(errorMessage(error, 'The thread limit could not be changed. Please try again.'));
    }
  });

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        if (!open) {
          form.reset({ threadLimit: plan.threadLimit, reason: '' });
          setServerError(null);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm" aria-label={`Change limit of ${plan.login}`}>
          Change limit
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Change thread limit"
        description={`${poolName} plan ${plan.login} may now hold ${formatInteger(plan.threadLimit)} connections at once.`}
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {serverError ? <Alert tone="error">{serverError}</Alert> : null}
          <FormField
            label="Thread limit"
            type="number"
            inputMode="numeric"
            min={MIN_THREAD_LIMIT}
            max={MAX_THREAD_LIMIT}
            step={1}
            error={errors.threadLimit?.message}
            {...form.register('threadLimit', { valueAsNumber: true })}
          />
          <ReasonField length={reason.length} error={errors.reason?.message} {...form.register('reason')} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button type="button" variant="secondary">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" isLoading={isSubmitting}>
              Save limit
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
