import {
  type AdjustBalanceRequest,
  adjustBalanceRequestSchema,
  type CustomerDetail,
  type StaffRole,
  SUPPORT_BALANCE_LIMIT_CENTS,
} from '@bytegate/contracts/admin';
import { formatUsd, parseDollarsToCents } from '@bytegate/contracts/money';
import { zodResolver } from '@hookform/resolvers/zod';
import { WalletIcon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useAdjustBalance } from '../../api/use-admin.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { formatDollars, formatSignedDollars } from './format.ts';
import { ReasonField } from './reason-field.tsx';

/** Credits or debits a customer's balance: a signed dollar amount and a reason, with the balance it leaves. */
export function AdjustBalanceDialog({
  customer,
  staffRole,
}: {
  customer: CustomerDetail;
  staffRole: StaffRole;
}) {
  const [isOpen, setOpen] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const adjust = useAdjustBalance(customer.id);
  const form = useForm<AdjustBalanceRequest>({
    resolver: zodResolver(adjustBalanceRequestSchema),
    defaultValues: { amount: '', reason: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const amountCents = parseDollarsToCents(form.watch('amount') ?? '');
  const reason = form.watch('reason') ?? '';
  const newBalance = amountCents === null ? null : customer.balance + amountCents / 100;

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await adjust.mutateAsync(values);
      setOpen(false);
      const cents = parseDollarsToCents(values.amount) ?? 0;
      toast.success(`Balance adjusted by ${formatSignedDollars(cents / 100)}`);
    } catch (error) {
      setServerError(errorMessage(error, 'The balance could not be adjusted. Please try again.'));
    }
  });

  return (
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
        <Button>
          <WalletIcon aria-hidden="true" />
          Adjust balance
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Adjust balance"
        description={`${customer.email} has ${formatDollars(customer.balance)}. A positive amount credits it, a negative one debits it.`}
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {serverError ? <Alert tone="error">{serverError}</Alert> : null}
          <div className="space-y-1.5">
            <FormField
              label="Amount (USD)"
              inputMode="decimal"
              autoComplete="off"
              placeholder="12.50 or -3"
              error={errors.amount?.message}
              aria-describedby="adjust-balance-preview"
              {...form.register('amount')}
            />
            <p id="adjust-balance-preview" className="text-xs text-gray-500" aria-live="polite">
              {newBalance === null || amountCents === 0
                ? staffRole === 'support'
                  ? `Support may move up to ${formatUsd(SUPPORT_BALANCE_LIMIT_CENTS)} in 24 hours, refunds and approvals included.`
                  : 'Dollars and cents, signed: 12.50 credits, -3 debits.'
                : `New balance: ${formatDollars(newBalance)}`}
            </p>
          </div>
          <ReasonField length={reason.length} error={errors.reason?.message} {...form.register('reason')} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button type="button" variant="secondary">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" isLoading={isSubmitting}>
              Adjust balance
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
