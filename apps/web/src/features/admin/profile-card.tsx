import type { CustomerDetailResponse } from '@bytegate/contracts/admin';
import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { CopyButton } from '../../components/ui/copy-button.tsx';
import { formatDate } from './format.ts';
import { CustomerStatusBadge, roleLabel } from './status-badges.tsx';

const none = <span className="text-gray-500">None</span>;

/** Who the customer is (what has been opened for them is the Unblocks card's). */
export function ProfileCard({ detail }: { detail: CustomerDetailResponse }) {
  const { customer } = detail;
  return (
    <Card aria-labelledby="admin-profile-title">
      <CardHeader>
        <CardTitle id="admin-profile-title">Profile</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="space-y-3 text-sm">
          <Row label="Name">
            {customer.firstName} {customer.lastName}
          </Row>
          <Row label="Email">
            <span className="break-all">{customer.email}</span>
          </Row>
          <Row label="Company">{customer.company ?? none}</Row>
          <Row label="Status">
            <CustomerStatusBadge status={customer.status} />
          </Row>
          <Row label="Role">{roleLabel(customer.role)}</Row>
          <Row label="Customer since">
            <time dateTime={customer.createdAt}>{formatDate(customer.createdAt)}</time>
          </Row>
          <Row label="Customer id">
            <span className="flex min-w-0 items-center gap-1">
              <code className="truncate font-mono text-xs text-gray-800">{customer.id}</code>
              <CopyButton
                text={customer.id}
                what="customer id"
                variant="ghost"
                size="icon"
                className="-my-2"
              />
            </span>
          </Row>
        </dl>
      </CardContent>
    </Card>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[8.5rem_minmax(0,1fr)] items-baseline gap-3">
      <dt className="text-gray-600">{label}</dt>
      <dd className="min-w-0 text-gray-900">{children}</dd>
    </div>
  );
}
