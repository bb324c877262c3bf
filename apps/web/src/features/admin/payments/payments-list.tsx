import type { StaffRole } from '@bytegate/contracts/admin';
import type { Payment } from '@bytegate/contracts/admin-payments';
import { ChevronDownIcon } from 'lucide-react';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { cn } from '../../../lib/cn.ts';
import { OrderStatusBadge } from '../../billing/order-status-badge.tsx';
import { formatDateTime, formatDollars } from '../format.ts';
import { CheckButton, isCheckable } from './check-button.tsx';
import { PaymentDetails } from './payment-events.tsx';
import { KIND_LABELS, PROVIDER_LABELS } from './payment-labels.ts';
import { ApproveDialog, RejectDialog } from './review-dialogs.tsx';

interface PaymentsListProps {
  payments: Payment[];
  staffRole: StaffRole;
  /** Where a customer's page links back to. */
  backTo: string;
}

/**
 * Payments: a table on wide screens and cards on a phone. A row opens to its invoice and the provider's
 * webhooks; a top-up at a provider can be checked with it, one held for review decided.
 */
export function PaymentsList({ payments, staffRole, backTo }: PaymentsListProps) {
  const [openId, setOpenId] = useState<string | null>(null);
  const toggle = (orderId: string) => setOpenId((current) => (current === orderId ? null : orderId));
  return (
    <>
      <div className="hidden lg:block">
        <Table aria-label="Payments">
          <TableHeader>
            <TableRow>
              <TableHead>Order</TableHead>
              <TableHead>Customer</TableHead>
              <TableHead>Provider</TableHead>
              <TableHead className="text-right">Amount</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {payments.map((payment) => {
              const isOpen = openId === payment.orderId;
              return (
                <Fragment key={payment.orderId}>
                  <TableRow className={cn('align-top', isOpen && 'bg-gray-50/60')}>
                    <TableCell className="align-top">
                      <span className="font-mono text-xs text-gray-800">{payment.orderId}</span>
                      <span className="block text-xs text-gray-500">
                        {KIND_LABELS[payment.kind]} ·{' '}
                        <time dateTime={payment.createdAt}>{formatDateTime(payment.createdAt)}</time>
                      </span>
                    </TableCell>
                    <TableCell className="max-w-56 truncate align-top">
                      <CustomerLink payment={payment} backTo={backTo} />
                    </TableCell>
                    <TableCell className="align-top">
                      {PROVIDER_LABELS[payment.provider]}
                      <span className="block text-xs text-gray-500">{payment.providerStatus ?? '—'}</span>
                    </TableCell>
                    <TableCell className="text-right align-top tabular-nums">
                      <Money payment={payment} />
                    </TableCell>
                    <TableCell className="align-top">
                      <OrderStatusBadge status={payment.status} />
                    </TableCell>
                    <TableCell className="align-top">
                      <div className="flex items-start justify-end gap-2">
                        <ExpandButton payment={payment} isOpen={isOpen} onToggle={toggle} />
                      </div>
                    </TableCell>
                  </TableRow>
                  {isOpen ? (
                    <TableRow className="hover:bg-transparent">
                      <TableCell
                        colSpan={6}
                        className="bg-gray-50/60 whitespace-normal"
                        id={detailsId(payment)}
                      >
                        <div className="grid gap-4 xl:grid-cols-[1fr_auto]">
                          <PaymentDetails payment={payment} />
                          <Actions payment={payment} staffRole={staffRole} />
                        </div>
                      </TableCell>
                    </TableRow>
                  ) : null}
                </Fragment>
              );
            })}
          </TableBody>
        </Table>
      </div>
      <ul className="divide-y divide-gray-100 lg:hidden" aria-label="Payments">
        {payments.map((payment) => {
          const isOpen = openId === payment.orderId;
          return (
            <li key={payment.orderId} className="space-y-2 px-5 py-4 text-sm">
              <div className="flex items-center justify-between gap-3">
                <span className="font-mono text-xs text-gray-800">{payment.orderId}</span>
                <OrderStatusBadge status={payment.status} />
              </div>
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <CustomerLink payment={payment} backTo={backTo} />
                  <p className="text-xs text-gray-500">
                    {KIND_LABELS[payment.kind]} · {PROVIDER_LABELS[payment.provider]}
                    {payment.providerStatus ? ` (${payment.providerStatus})` : ''} ·{' '}
                    <time dateTime={payment.createdAt}>{formatDateTime(payment.createdAt)}</time>
                  </p>
                </div>
                <span className="shrink-0 text-right tabular-nums">
                  <Money payment={payment} />
                </span>
              </div>
              <ExpandButton payment={payment} isOpen={isOpen} onToggle={toggle} />
              {isOpen ? (
                <div id={detailsId(payment)} className="space-y-4 rounded-lg bg-gray-50 p-3">
                  <PaymentDetails payment={payment} />
                  <Actions payment={payment} staffRole={staffRole} />
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}

const detailsId = (payment: Payment) => `payment-${payment.orderId}-details`;

function CustomerLink({ payment, backTo }: { payment: Payment; backTo: string }) {
  return (
    <Link
      to={`/admin/customers/${payment.userId}`}
      state={{ backTo }}
      title={payment.email}
      className="block truncate font-medium text-gray-900 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-500"
    >
      {payment.email}
    </Link>
  );
}

/** What was asked, and what was credited or refunded when that differs. */
function Money({ payment }: { payment: Payment }) {
  const isTopupShort =
    payment.kind === 'topup' && payment.status === 'completed' && payment.credited !== payment.amount;
  return (
    <>
      <span className="font-medium text-gray-900">{formatDollars(payment.amount)}</span>
      {isTopupShort ? (
        <span className="block text-xs text-gray-500">{formatDollars(payment.credited)} credited</span>
      ) : null}
      {payment.refundedAt ? (
        <span className="block text-xs text-gray-500">{formatDollars(payment.refunded)} refunded</span>
      ) : null}
    </>
  );
}

function ExpandButton({
  payment,
  isOpen,
  onToggle,
}: {
  payment: Payment;
  isOpen: boolean;
  onToggle: (orderId: string) => void;
}) {
  const events = payment.eventCount === 1 ? '1 event' : `${payment.eventCount} events`;
  return (
    <Button
      type="button"
      variant="ghost"
      size="sm"
      aria-expanded={isOpen}
      aria-controls={isOpen ? detailsId(payment) : undefined}
      onClick={() => onToggle(payment.orderId)}
    >
      <span className="sr-only">{isOpen ? 'Hide' : 'Show'} </span>
      {payment.provider === 'balance' ? 'Details' : events}
      <span className="sr-only"> of {payment.orderId}</span>
      <ChevronDownIcon aria-hidden="true" className={cn('transition-transform', isOpen && 'rotate-180')} />
    </Button>
  );
}

/** What staff may do with the payment now. */
function Actions({ payment, staffRole }: { payment: Payment; staffRole: StaffRole }) {
  const isHeld = payment.status === 'review';
  if (!isCheckable(payment) && !isHeld) {
    return null;
  }
  return (
    <div className="flex flex-wrap items-start gap-2 xl:flex-col xl:items-end">
      {isCheckable(payment) ? <CheckButton payment={payment} /> : null}
      {isHeld ? (
        <div className="flex gap-2">
          <RejectDialog payment={payment} />
          <ApproveDialog payment={payment} staffRole={staffRole} />
        </div>
      ) : null}
    </div>
  );
}
