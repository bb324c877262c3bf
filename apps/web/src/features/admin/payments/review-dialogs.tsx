import { type StaffRole, SUPPORT_BALANCE_LIMIT_CENTS } from '@bytegate/contracts/admin';
import {
  type ApproveTopupRequest,
  approveTopupRequestSchema,
  type Payment,
} from '@bytegate/contracts/admin-payments';
import { formatUsd, parseDollarsToCents } from '@bytegate/contracts/money';
import { zodResolver } from '@hookform/resolvers/zod';
import { CheckIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { errorMessage } from '../../../api/api-client.ts';
import { useApproveTopup, useRejectTopup } from '../../../api/use-admin-payments.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../../components/ui/dialog.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { formatDollars } from '../format.ts';
import { ReasonDialog } from '../reason-dialog.tsx';
import { ReasonField } from '../reason-field.tsx';
import { PROVIDER_LABELS } from './payment-labels.ts';

/**
 * Approves a top-up held for review: staff enter what arrived in dollars (from the provider's
 * dashboard), at most the invoice; it is credited once, with the reason.
 */
export function ApproveDialog({ payment, staffRole }: { payment: Payment; staffRole: StaffRole }) {
  const [isOpen, setOpen] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const approve = useApproveTopup(payment.userId);
  const form = useForm<ApproveTopupRequest>({
    resolver: zodResolver(approveTopupRequestSchema),
    defaultValues: { amount: '', reason: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const reason = form.watch('reason') ?? '';
  const cents = parseDollarsToCents(form.watch('amount') ?? '');
  const paid = payment.review?.payerPaid;

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await approve.mutateAsync({ ...values, orderId: payment.orderId });
      setOpen(false);
      toast.success(
        `${payment.orderId} approved: ${formatUsd(parseDollarsToCents(values.amount) ?? 0)} credited`,
      );
    } catch (error) {
      setServerError(errorMessage(error, 'The top-up could not be approved. Please try again.'));
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
        <Button size="sm" aria-label={`Approve ${payment.orderId}`}>
          <CheckIcon aria-hidden="true" />
          Approve
        </Button>
      </DialogTrigger>
      <DialogContent
        title={`Approve ${payment.orderId}`}
        description={`Credit ${payment.email} with what actually arrived. Check the payment in ${PROVIDER_LABELS[payment.provider]}'s dashboard first.`}
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {serverError ? <Alert tone="error">{serverError}</Alert> : null}
          <dl className="divide-y divide-gray-100 rounded-lg border border-gray-200 text-sm">
            <div className="flex justify-between gap-3 px-4 py-2.5">
              <dt className="text-gray-600">Invoice</dt>
              <dd className="font-medium text-gray-900 tabular-nums">{formatDollars(payment.amount)}</dd>
            </div>
            <div className="flex justify-between gap-3 px-4 py-2.5">
              <dt className="text-gray-600">Payer sent</dt>
              <dd className="text-right text-gray-900 tabular-nums">
                {paid ? `${paid.amount} ${paid.currency}` : 'Not reported'}
                <span className="block text-xs text-gray-500">no USD amount from the provider</span>
              </dd>
            </div>
          </dl>
          <div className="space-y-1.5">
            <FormField
              label="Amount to credit (USD)"
              inputMode="decimal"
              autoComplete="off"
              placeholder="12.50"
              error={errors.amount?.message}
              aria-describedby="approve-topup-hint"
              {...form.register('amount')}
            />
            <p id="approve-topup-hint" className="text-xs text-gray-500" aria-live="polite">
              {cents !== null && cents > Math.round(payment.amount * 100)
                ? `At most the invoice's ${formatDollars(payment.amount)}; credit an overpayment with a balance adjustment.`
                : staffRole === 'support'
                  ? `At most ${formatDollars(payment.amount)}. Support may move up to ${formatUsd(SUPPORT_BALANCE_LIMIT_CENTS)} in 24 hours.`
                  : `At most ${formatDollars(payment.amount)}.`}
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
              {cents !== null && cents > 0 ? `Approve and credit ${formatUsd(cents)}` : 'Approve and credit'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Rejects a top-up held for review: the order fails and nothing is credited. */
export function RejectDialog({ payment }: { payment: Payment }) {
  const reject = useRejectTopup(payment.userId);
  return (
    <ReasonDialog
      trigger={
        <Button variant="secondary" size="sm" aria-label={`Reject ${payment.orderId}`}>
          <XIcon aria-hidden="true" />
          Reject
        </Button>
      }
      title={`Reject ${payment.orderId}?`}
      description={`The top-up fails and nothing is credited; ${payment.email} sees it as failed. Use this when nothing (or nothing usable) arrived.`}
      confirmLabel="Reject top-up"
      confirmVariant="danger"
      failureMessage="The top-up could not be rejected. Please try again."
      onConfirm={async (body) => {
        await reject.mutateAsync({ ...body, orderId: payment.orderId });
        toast.success(`${payment.orderId} rejected`);
      }}
    />
  );
}
