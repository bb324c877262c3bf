import type { AdminOrder, StaffRole } from '@bytegate/contracts/admin';
import { SUPPORT_BALANCE_LIMIT_CENTS } from '@bytegate/contracts/admin';
import {
  type RefundPreview,
  type RefundRequest,
  refundRequestSchema,
} from '@bytegate/contracts/admin-payments';
import { formatUsd } from '@bytegate/contracts/money';
import { zodResolver } from '@hookform/resolvers/zod';
import { Undo2Icon } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useRefund, useRefundPreview } from '../../api/use-admin-payments.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../components/ui/dialog.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { formatDate, formatDollars, formatGb, formatInteger, formatSignedDollars } from './format.ts';
import { ReasonField } from './reason-field.tsx';
import { ErrorState } from './states.tsx';

/**
 * Refunds an order from the customer's page. What it would move comes from the server (the same rule
 * the refund applies), shown to the byte and the cent before anyone confirms; a reason is required.
 */
export function RefundDialog({
  userId,
  order,
  staffRole,
}: {
  userId: string;
  order: AdminOrder;
  staffRole: StaffRole;
}) {
  const [isOpen, setOpen] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const preview = useRefundPreview(order.orderId, isOpen);
  const refund = useRefund(userId);
  const form = useForm<RefundRequest>({
    resolver: zodResolver(refundRequestSchema),
    defaultValues: { reason: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const reason = form.watch('reason') ?? '';
  const shown = preview.data;
  const isBeyondSupport = shown?.needsAdmin === true && staffRole !== 'admin';
  const canConfirm = shown !== undefined && shown.refusal === null && !isBeyondSupport;

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      const { refund: done } = await refund.mutateAsync({ ...values, orderId: order.orderId });
      setOpen(false);
      toast.success(
        done.kind === 'purchase'
          ? `${order.orderId} refunded: ${formatDollars(done.amount)} back to the balance`
          : `${order.orderId} refunded: ${formatDollars(done.amount)} taken off the balance`,
      );
    } catch (error) {
      setServerError(errorMessage(error, 'The order could not be refunded. Please try again.'));
      void preview.refetch();
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
        <Button variant="secondary" size="sm" aria-label={`Refund ${order.orderId}`}>
          <Undo2Icon aria-hidden="true" />
          Refund
        </Button>
      </DialogTrigger>
      <DialogContent
        title={`Refund ${order.orderId}`}
        description={
          order.kind === 'purchase'
            ? 'The unused traffic of this purchase comes off the plan and its share of the price goes back to the balance.'
            : 'Only for money already returned outside Bytegate (on chain): what this top-up credited comes off the balance.'
        }
        className="max-w-lg"
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {serverError ? <Alert tone="error">{serverError}</Alert> : null}
          {preview.isPending ? (
            <div role="status" aria-label="Loading the refund" className="space-y-2">
              <Skeleton className="h-5 w-2/3" />
              <Skeleton className="h-24 w-full" />
            </div>
          ) : preview.isError ? (
            <ErrorState
              error={preview.error}
              fallback="What this refund would move could not be worked out. Please try again."
              onRetry={() => void preview.refetch()}
              isRetrying={preview.isFetching}
            />
          ) : (
            <RefundSummary preview={preview.data} />
          )}
          {shown?.refusal ? <Alert tone="warning">{shown.refusal.message}</Alert> : null}
          {shown && !shown.refusal && isBeyondSupport ? (
            <Alert tone="warning">
              Only an admin can make this refund: support may move at most{' '}
              {formatUsd(SUPPORT_BALANCE_LIMIT_CENTS)} in 24 hours, adjustments, refunds and approvals
              together.
            </Alert>
          ) : null}
          {canConfirm ? (
            <ReasonField length={reason.length} error={errors.reason?.message} {...form.register('reason')} />
          ) : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button type="button" variant="secondary">
                {canConfirm ? 'Cancel' : 'Close'}
              </Button>
            </DialogClose>
            {canConfirm ? (
              <Button type="submit" variant="danger" isLoading={isSubmitting}>
                Refund {formatDollars(shown.amount)}
              </Button>
            ) : null}
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** What the refund moves: traffic and money, before and after. */
function RefundSummary({ preview }: { preview: RefundPreview }) {
  const rows: Array<[string, ReactNode]> = [];
  if (preview.kind === 'purchase' && preview.refundBytes !== null && preview.boughtBytes !== null) {
    rows.push([
      'Unused traffic refunded',
      <>
        {formatGb(preview.refundBytes)} of {formatGb(preview.boughtBytes)} bought
        <span className="block text-xs text-gray-500">{formatInteger(preview.refundBytes)} bytes</span>
      </>,
    ]);
    if (preview.planTotalBytes !== null && preview.planTotalAfterBytes !== null) {
      rows.push([
        'Plan traffic',
        <>
          {formatGb(preview.planTotalBytes)} → {formatGb(preview.planTotalAfterBytes)}
          <span className="block text-xs text-gray-500">
            {formatGb(preview.planUsedBytes ?? 0)} used so far
          </span>
        </>,
      ]);
    }
  }
  rows.push([
    preview.kind === 'purchase' ? 'Credited to the balance' : 'Taken off the balance',
    <span key="amount" className="font-semibold">
      {formatSignedDollars(preview.kind === 'purchase' ? preview.amount : -preview.amount)}
    </span>,
  ]);
  rows.push(['Balance', `${formatDollars(preview.balance)} → ${formatDollars(preview.balanceAfter)}`]);
  if (preview.refundableUntil) {
    rows.push(['Refundable until', formatDate(preview.refundableUntil)]);
  }
  return (
    <dl className="divide-y divide-gray-100 rounded-lg border border-gray-200 text-sm" aria-label="Refund">
      {rows.map(([label, value]) => (
        <div key={label} className="grid grid-cols-[minmax(0,10rem)_minmax(0,1fr)] gap-3 px-4 py-2.5">
          <dt className="text-gray-600">{label}</dt>
          <dd className="text-right text-gray-900 tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
