import type { CustomerMatch, CustomerSummary } from '@bytegate/contracts/admin';
import { ChevronRightIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '../../components/ui/badge.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table.tsx';
import { formatDate, formatDollars } from './format.ts';
import { CustomerStatusBadge, RoleBadge } from './status-badges.tsx';

const MATCH_LABELS: Record<CustomerMatch, string> = {
  email: 'Email',
  name: 'Name',
  proxy_login: 'Proxy login',
  ip: 'IP address',
  order: 'Order number',
  invoice: 'Invoice id',
};

interface CustomerResultsProps {
  customers: CustomerSummary[];
  /** Whether a search is shown (then each row says what matched), or the newest customers. */
  isSearch: boolean;
  /** Where the customer's page links back to: this search. */
  backTo: string;
}

/** Search results: a table on wide screens, a list of cards on a phone; each customer opens their page. */
export function CustomerResults({ customers, isSearch, backTo }: CustomerResultsProps) {
  const linkState = { backTo };
  return (
    <>
      <div className="hidden md:block">
        <Table aria-label="Customers">
          <TableHeader>
            <TableRow>
              <TableHead>Customer</TableHead>
              {isSearch ? <TableHead>Matched by</TableHead> : null}
              <TableHead>Status</TableHead>
              <TableHead className="text-right">Balance</TableHead>
              <TableHead>Joined</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {customers.map((customer) => (
              <TableRow key={customer.id} className="relative">
                <TableCell>
                  <Link
                    to={`/admin/customers/${customer.id}`}
                    state={linkState}
                    className="group block rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
                  >
                    <span className="flex items-center gap-2 font-medium text-gray-900 group-hover:text-brand-700">
                      {customer.firstName} {customer.lastName}
                      <RoleBadge role={customer.role} />
                    </span>
                    <span className="block text-gray-600">{customer.email}</span>
                  </Link>
                </TableCell>
                {isSearch ? (
                  <TableCell>
                    <Badge>{MATCH_LABELS[customer.matchedBy]}</Badge>
                  </TableCell>
                ) : null}
                <TableCell>
                  <CustomerStatusBadge status={customer.status} />
                </TableCell>
                <TableCell className="text-right font-medium tabular-nums">
                  {formatDollars(customer.balance)}
                </TableCell>
                <TableCell className="text-gray-600">
                  <time dateTime={customer.createdAt}>{formatDate(customer.createdAt)}</time>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <ul className="divide-y divide-gray-100 md:hidden" aria-label="Customers">
        {customers.map((customer) => (
          <li key={customer.id}>
            <Link
              to={`/admin/customers/${customer.id}`}
              state={linkState}
              className="flex items-center gap-3 px-5 py-4 hover:bg-gray-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-500"
            >
              <div className="min-w-0 flex-1 space-y-1">
                <p className="flex items-center gap-2 font-medium text-gray-900">
                  <span className="truncate">
                    {customer.firstName} {customer.lastName}
                  </span>
                  <RoleBadge role={customer.role} />
                </p>
                <p className="truncate text-sm text-gray-600">{customer.email}</p>
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <CustomerStatusBadge status={customer.status} />
                  {isSearch ? <Badge>{MATCH_LABELS[customer.matchedBy]}</Badge> : null}
                  <span className="font-medium text-gray-900 tabular-nums">
                    {formatDollars(customer.balance)}
                  </span>
                </div>
              </div>
              <ChevronRightIcon className="size-5 shrink-0 text-gray-400" aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
