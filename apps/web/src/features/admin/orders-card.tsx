import type { AdminOrder, StaffRole } from '@bytegate/contracts/admin';
import { ReceiptTextIcon } from 'lucide-react';
import { Badge } from '../../components/ui/badge.tsx';
import { Card, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table.tsx';
import { OrderStatusBadge } from '../billing/order-status-badge.tsx';
import { formatDate, formatDateTime, formatDollars } from './format.ts';
import { RefundDialog } from './refund-dialog.tsx';
import { EmptyState } from './states.tsx';

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency || 'USD' }).format(amount);

interface OrdersCardProps {
  userId: string;
  orders: AdminOrder[];
  staffRole: StaffRole;
}

/** The customer's latest orders (50) as they see them, with what was refunded and a way to refund. */
export function OrdersCard({ userId, orders, staffRole }: OrdersCardProps) {
  return (
    <Card aria-labelledby="admin-orders-title">
      <CardHeader>
        <CardTitle id="admin-orders-title">Orders</CardTitle>
      </CardHeader>
      {orders.length === 0 ? (
        <EmptyState icon={ReceiptTextIcon} title="No orders">
          Top-ups and plan purchases appear here.
        </EmptyState>
      ) : (
        <>
          <div className="hidden md:block">
            <Table aria-labelledby="admin-orders-title">
              <TableHeader>
                <TableRow>
                  <TableHead>Order</TableHead>
                  <TableHead>Description</TableHead>
                  <TableHead className="text-right">Amount</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>
                    <span className="sr-only">Refund</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {orders.map((order) => (
                  <TableRow key={order.orderId}>
                    <TableCell>
                      <span className="font-mono text-xs">{order.orderId}</span>
                      <time dateTime={order.date} className="block text-xs text-gray-500">
                        {formatDateTime(order.date)}
                      </time>
                    </TableCell>
                    <TableCell className="min-w-40 whitespace-normal">
                      {order.description}
                      <span className="block text-xs text-gray-500">{order.paymentMethod}</span>
                    </TableCell>
                    <TableCell className="text-right font-medium tabular-nums">
                      {money(order.amount, order.currency)}
                    </TableCell>
                    <TableCell>
                      <OrderState order={order} />
                    </TableCell>
                    <TableCell className="text-right">
                      <RefundAction userId={userId} order={order} staffRole={staffRole} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          <ul className="divide-y divide-gray-100 md:hidden" aria-labelledby="admin-orders-title">
            {orders.map((order) => (
              <li key={order.orderId} className="space-y-1.5 px-5 py-3 text-sm">
                <div className="flex items-center justify-between gap-3">
                  <span className="font-mono text-xs text-gray-700">{order.orderId}</span>
                  <OrderState order={order} />
                </div>
                <p className="text-gray-900">{order.description}</p>
                <div className="flex items-center justify-between gap-3 text-gray-600">
                  <time dateTime={order.date}>{formatDateTime(order.date)}</time>
                  <span className="font-medium text-gray-900 tabular-nums">
                    {money(order.amount, order.currency)}
                  </span>
                </div>
                {order.canRefund ? (
                  <div className="flex justify-end pt-1">
                    <RefundAction userId={userId} order={order} staffRole={staffRole} />
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}

/** The order's status, and what was refunded of it. */
function OrderState({ order }: { order: AdminOrder }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <OrderStatusBadge status={order.status} />
      {order.refundedAt ? (
        <Badge tone="neutral" title={`Refunded on ${formatDate(order.refundedAt)}`}>
          Refunded {formatDollars(order.refunded)}
        </Badge>
      ) : null}
    </span>
  );
}

/** Refund while it may be asked for; a purchase past its window says so. */
function RefundAction({ userId, order, staffRole }: Omit<OrdersCardProps, 'orders'> & { order: AdminOrder }) {
  if (order.canRefund) {
    return <RefundDialog userId={userId} order={order} staffRole={staffRole} />;
  }
  if (order.kind === 'purchase' && !order.refundedAt && order.refundableUntil) {
    return <span className="text-xs text-gray-500">Refund window closed</span>;
  }
  return null;
}
