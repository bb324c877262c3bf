import type { CustomerDetailResponse, StaffRole } from '@bytegate/contracts/admin';
import { BanIcon, ChevronLeftIcon, CircleCheckIcon, ScrollTextIcon, UserXIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { toast } from 'sonner';
import { useCustomer, useSetAccountStatus } from '../../api/use-admin.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { AdjustBalanceDialog } from '../../features/admin/adjust-balance-dialog.tsx';
import { AuditList } from '../../features/admin/audit-list.tsx';
import { formatDollars, formatGb, formatInteger } from '../../features/admin/format.ts';
import { LedgerCard } from '../../features/admin/ledger-card.tsx';
import { OrdersCard } from '../../features/admin/orders-card.tsx';
import { PageHeader } from '../../features/admin/page-header.tsx';
import { PlansCard } from '../../features/admin/plans-card.tsx';
import { ProfileCard } from '../../features/admin/profile-card.tsx';
import { ReasonDialog } from '../../features/admin/reason-dialog.tsx';
import { SessionsCard } from '../../features/admin/sessions-card.tsx';
import { EmptyState, ErrorState, isNotFound } from '../../features/admin/states.tsx';
import { CustomerStatusBadge, RoleBadge } from '../../features/admin/status-badges.tsx';
import { UnblocksCard } from '../../features/admin/unblocks-card.tsx';
import { CustomerUsageCard } from '../../features/admin/usage-card.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** A customer's page: who they are, their money and traffic, and what staff did to the account. */
export function CustomerPage({ userId, staffRole }: { userId: string; staffRole: StaffRole }) {
  const location = useLocation();
  const backTo = (location.state as { backTo?: string } | null)?.backTo ?? '/admin';
  const customer = useCustomer(userId);
  const name = customer.data
    ? `${customer.data.customer.firstName} ${customer.data.customer.lastName}`
    : null;
  useDocumentTitle(`${name ?? 'Customer'} · Console`);

  const back = (
    <nav aria-label="Breadcrumb">
      <Link
        to={backTo}
        className="inline-flex items-center gap-1 rounded text-sm font-medium text-gray-600 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-brand-500"
      >
        <ChevronLeftIcon className="size-4" aria-hidden="true" />
        Customers
      </Link>
    </nav>
  );

  if (customer.isPending) {
    return (
      <div role="status" aria-label="Loading customer" className="space-y-6">
        {back}
        <Skeleton className="h-9 w-72" />
        <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
          {[0, 1, 2, 3].map((tile) => (
            <Skeleton key={tile} className="h-24" />
          ))}
        </div>
        <div className="grid gap-6 lg:grid-cols-3">
          <Skeleton className="h-80 lg:col-span-2" />
          <Skeleton className="h-80" />
        </div>
      </div>
    );
  }
  if (customer.isError) {
    return (
      <div className="space-y-6">
        <PageHeader before={back} title={isNotFound(customer.error) ? 'Customer not found' : 'Customer'} />
        {isNotFound(customer.error) ? (
          <Card>
            <EmptyState icon={UserXIcon} title="There is no customer with this id">
              The account may have been deleted. Search for the customer again.
            </EmptyState>
          </Card>
        ) : (
          <ErrorState
            error={customer.error}
            fallback="This customer could not be loaded. Please try again."
            onRetry={() => void customer.refetch()}
            isRetrying={customer.isFetching}
          />
        )}
      </div>
    );
  }
  return <CustomerView detail={customer.data} staffRole={staffRole} back={back} />;
}

function CustomerView({
  detail,
  staffRole,
  back,
}: {
  detail: CustomerDetailResponse;
  staffRole: StaffRole;
  back: ReactNode;
}) {
  const { customer, plans, sessions } = detail;
  const setStatus = useSetAccountStatus(customer.id);
  const isDisabled = customer.status === 'disabled';
  const activePlans = plans.filter((plan) => plan.isActive);
  const trafficLeft = activePlans.reduce(
    (left, plan) => left + Math.max(0, plan.trafficTotalBytes - plan.trafficUsedBytes),
    0,
  );
  const stats = [
    { label: 'Balance', value: formatDollars(customer.balance) },
    { label: 'Traffic left', value: formatGb(trafficLeft) },
    { label: 'Active plans', value: formatInteger(activePlans.length) },
    { label: 'Open sessions', value: formatInteger(sessions.length) },
  ];

  return (
    <div className="space-y-6">
      <PageHeader
        before={back}
        title={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="break-all">
              {customer.firstName} {customer.lastName}
            </span>
            <span className="flex items-center gap-2 text-base font-normal">
              <CustomerStatusBadge status={customer.status} />
              <RoleBadge role={customer.role} />
            </span>
          </span>
        }
        description={<span className="break-all">{customer.email}</span>}
        actions={
          <>
            <AdjustBalanceDialog customer={customer} staffRole={staffRole} />
            <ReasonDialog
              trigger={
                <Button variant={isDisabled ? 'secondary' : 'danger'}>
                  {isDisabled ? <CircleCheckIcon aria-hidden="true" /> : <BanIcon aria-hidden="true" />}
                  {isDisabled ? 'Enable account' : 'Disable account'}
                </Button>
              }
              title={isDisabled ? 'Enable this account?' : 'Disable this account?'}
              description={
                isDisabled
                  ? `${customer.email} can sign in again and their proxies work again.`
                  : `${customer.email} is signed out everywhere, cannot sign in, and their proxies stop working until the account is enabled.`
              }
              confirmLabel={isDisabled ? 'Enable account' : 'Disable account'}
              confirmVariant={isDisabled ? 'primary' : 'danger'}
              failureMessage="The account could not be changed. Please try again."
              onConfirm={async (body) => {
                await setStatus.mutateAsync({ ...body, isDisabled: !isDisabled });
                toast.success(isDisabled ? 'Account enabled' : 'Account disabled');
              }}
            />
          </>
        }
      />

      {isDisabled ? (
        <Alert tone="warning">
          This account is disabled: it cannot sign in and its proxies refuse connections. The audit log below
          says who disabled it and why.
        </Alert>
      ) : null}

      <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {stats.map((stat) => (
          <div
            key={stat.label}
            className="rounded-xl border border-gray-200 bg-white px-4 py-4 shadow-xs sm:px-5"
          >
            <dt className="text-sm text-gray-600">{stat.label}</dt>
            <dd
              className="mt-1 text-xl font-semibold tracking-tight text-gray-900 tabular-nums sm:text-2xl"
              data-testid={`stat-${stat.label.toLowerCase().replaceAll(' ', '-')}`}
            >
              {stat.value}
            </dd>
          </div>
        ))}
      </dl>

      <div className="grid items-start gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <CustomerUsageCard userId={customer.id} />
          <PlansCard userId={customer.id} plans={plans} />
          <LedgerCard ledger={detail.ledger} />
          <OrdersCard userId={customer.id} orders={detail.orders} staffRole={staffRole} />
        </div>
        <div className="min-w-0 space-y-6">
          <ProfileCard detail={detail} />
          <UnblocksCard customer={customer} unblocks={detail.unblocks} />
          <SessionsCard customer={customer} sessions={sessions} />
        </div>
      </div>

      <Card aria-labelledby="admin-customer-audit-title">
        <CardHeader className="flex flex-row items-center justify-between gap-3">
          <CardTitle id="admin-customer-audit-title">Audit log</CardTitle>
          <Link
            to={`/admin/audit?targetId=${encodeURIComponent(customer.id)}`}
            className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
          >
            Open in audit log
          </Link>
        </CardHeader>
        {detail.audit.length === 0 ? (
          <EmptyState icon={ScrollTextIcon} title="No staff actions yet">
            Balance adjustments, refunds, thread limits, passwords, unblocks, disabling and revoked sessions
            appear here.
          </EmptyState>
        ) : (
          <AuditList entries={detail.audit} label="Staff actions on this customer" showsTarget={false} />
        )}
      </Card>
    </div>
  );
}
