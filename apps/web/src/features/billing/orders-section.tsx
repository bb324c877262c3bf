import type { Order } from '@bytegate/contracts/billing';
import { FileTextIcon, ReceiptTextIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { openInvoice, useOrders } from '../../api/use-orders.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Pager } from '../../components/ui/pager.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table.tsx';
import { OrderStatusBadge } from './order-status-badge.tsx';

const LOAD_FAILED = 'Unable to load orders. Please try again later.';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const timeFormat = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });
const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency || 'USD' }).format(amount);

/**
 * What an order cost, or for a top-up paid short, what was invoiced and what was credited: the
 * balance grew by the credited amount, and that is what the customer needs to see beside the status.
 */
function OrderAmount({ order }: { order: Order }) {
  const isPartial = order.creditedAmount !== null && order.creditedAmount < order.amount;
  if (!isPartial) {
    return money(order.amount, order.currency);
  }
  return (
    <span className="inline-flex flex-col items-end">
      <span>{money(order.amount, order.currency)} invoiced</span>
      <span className="text-xs font-normal text-amber-700">
        {money(order.creditedAmount ?? 0, order.currency)} credited
      </span>
    </span>
  );
}

function InvoiceButton({ order, onInvoice }: { order: Order; onInvoice: (order: Order) => void }) {
  return (
    <Button
      variant="ghost"
      size="sm"
      onClick={() => onInvoice(order)}
      aria-label={`Invoice for order ${order.orderId}`}
    >
      <FileTextIcon /> Invoice
    </Button>
  );
}

export function OrdersSection() {
  const [page, setPage] = useState(1);
  const { data, isPending, isError, isFetching } = useOrders(page);

  useEffect(() => {
    if (isError) {
      toast.error(LOAD_FAILED);
    }
  }, [isError]);

  const onInvoice = (order: Order) => {
    if (!order.invoiceUrl) {
      toast.info('No Invoice Available', { description: 'Invoices are issued for completed orders.' });
      return;
    }
    openInvoice(order).catch(() => toast.error('No Invoice Available'));
  };

  const pagination = data?.pagination;
  return (
    // The card's own width (not the screen's, which the sidebar shares) picks the layout.
    <Card className="@container">
      <CardHeader className="flex flex-row items-center justify-between">
        <CardTitle>Order history</CardTitle>
        {pagination ? (
          <p className="text-sm text-gray-500">
            {pagination.totalItems.toLocaleString('en-US')} {pagination.totalItems === 1 ? 'order' : 'orders'}
          </p>
        ) : null}
      </CardHeader>
      {isPending ? (
        <CardContent className="space-y-3">
          {[0, 1, 2, 3].map((row) => (
            <Skeleton key={row} className="h-9 w-full" />
          ))}
        </CardContent>
      ) : isError ? (
        <CardContent>
          <Alert tone="error">{LOAD_FAILED}</Alert>
        </CardContent>
      ) : data.orders.length === 0 ? (
        <CardContent className="flex flex-col items-center gap-2 py-14 text-center">
          <ReceiptTextIcon className="size-10 text-gray-300" aria-hidden="true" />
          <p className="font-medium text-gray-900">No orders found</p>
          <p className="text-sm text-gray-500">Top-ups and plan purchases will appear here.</p>
        </CardContent>
      ) : (
        <>
          {/* Narrow: one card per order, everything in view; where the whole table fits: the table. */}
          <ul
            className="divide-y divide-gray-100 @4xl:hidden"
            aria-label="Orders"
            aria-busy={isFetching || undefined}
          >
            {data.orders.map((order) => (
              <li key={order.orderId} className="space-y-2 px-5 py-4">
                <div className="flex items-start justify-between gap-3">
                  <p className="min-w-0 text-sm font-medium break-words text-gray-900">{order.description}</p>
                  <p className="shrink-0 text-right text-sm font-semibold text-gray-900">
                    <OrderAmount order={order} />
                  </p>
                </div>
                <p className="text-xs text-gray-500">
                  <span className="font-mono">{order.orderId}</span> ·{' '}
                  <time dateTime={order.date}>
                    {dateFormat.format(new Date(order.date))}, {timeFormat.format(new Date(order.date))}
                  </time>{' '}
                  · {order.paymentMethod}
                </p>
                <div className="flex items-center justify-between gap-3">
                  <OrderStatusBadge status={order.status} />
                  <InvoiceButton order={order} onInvoice={onInvoice} />
                </div>
              </li>
            ))}
          </ul>
          <div className="hidden @4xl:block">
            <Table aria-busy={isFetching || undefined}>
              <TableHeader>
                <TableRow>
                  <TableHead>Order ID</TableHead>
                  <TableHead>Date</TableHead>
                  <TableHead>Description</TableHead>
                  <TableHead className="text-right">Amount</TableHead>
                  <TableHead>Currency</TableHead>
                  <TableHead className="whitespace-normal">Payment method</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>
                    <span className="sr-only">Invoice</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.orders.map((order) => (
                  <TableRow key={order.orderId}>
                    <TableCell className="font-mono text-xs">{order.orderId}</TableCell>
                    <TableCell>
                      <time dateTime={order.date}>
                        {dateFormat.format(new Date(order.date))}
                        <span className="block text-xs text-gray-500">
                          {timeFormat.format(new Date(order.date))}
                        </span>
                      </time>
                    </TableCell>
                    <TableCell className="min-w-36 whitespace-normal">{order.description}</TableCell>
                    <TableCell className="text-right font-medium">
                      <OrderAmount order={order} />
                    </TableCell>
                    <TableCell>{order.currency}</TableCell>
                    <TableCell className="whitespace-normal">{order.paymentMethod}</TableCell>
                    <TableCell>
                      <OrderStatusBadge status={order.status} />
                    </TableCell>
                    <TableCell>
                      <InvoiceButton order={order} onInvoice={onInvoice} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          <Pager label="Orders pages" page={page} pagination={pagination} onPage={setPage} />
        </>
      )}
    </Card>
  );
}
