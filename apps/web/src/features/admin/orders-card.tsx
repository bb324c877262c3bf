import type { Order } from '@bytegate/contracts/billing';
import { ReceiptTextIcon } from 'lucide-react';
import { Card, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table.tsx';
import { OrderStatusBadge } from '../billing/order-status-badge.tsx';
import { formatDateTime } from './format.ts';
import { EmptyState } from './states.tsx';

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency || 'USD' }).format(amount);

/** The customer's latest orders (50), as they see them in their dashboard. */
export function OrdersCard({ orders }: { orders: Order[] }) {
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
                  <TableHead>Date</TableHead>
                  <TableHead>Description</TableHead>
                  <TableHead className="text-right">Amount</TableHead>
                  <TableHead>Method</TableHead>
                  <TableHead>Status</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {orders.map((order) => (
                  <TableRow key={order.orderId}>
                    <TableCell className="font-mono text-xs">{order.orderId}</TableCell>
                    <TableCell>
                      <time dateTime={order.date}>{formatDateTime(order.date)}</time>
                    </TableCell>
                    <TableCell className="min-w-48 whitespace-normal">{order.description}</TableCell>
                    <TableCell className="text-right font-medium tabular-nums">
                      {money(order.amount, order.currency)}
                    </TableCell>
                    <TableCell>{order.paymentMethod}</TableCell>
                    <TableCell>
                      <OrderStatusBadge status={order.status} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          <ul className="divide-y divide-gray-100 md:hidden" aria-labelledby="admin-orders-title">
            {orders.map((order) => (
              <li key={order.orderId} className="space-y-1 px-5 py-3 text-sm">
                <div className="flex items-center justify-between gap-3">
                  <span className="font-mono text-xs text-gray-700">{order.orderId}</span>
                  <OrderStatusBadge status={order.status} />
                </div>
                <p className="text-gray-900">{order.description}</p>
                <div className="flex items-center justify-between gap-3 text-gray-600">
                  <time dateTime={order.date}>{formatDateTime(order.date)}</time>
                  <span className="font-medium text-gray-900 tabular-nums">
                    {money(order.amount, order.currency)}
                  </span>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
