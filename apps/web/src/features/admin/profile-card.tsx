import type { CustomerDetailResponse } from '@bytegate/contracts/admin';
import { KeyRoundIcon, ShieldOffIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { useResetTwoFactor, useSendPasswordReset } from '../../api/use-admin.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { CopyButton } from '../../components/ui/copy-button.tsx';
import { formatDate } from './format.ts';
import { ReasonDialog } from './reason-dialog.tsx';
import { CustomerStatusBadge, roleLabel } from './status-badges.tsx';

const none = <span className="text-gray-500">None</span>;

/** Who the customer is (what has been opened for them is the Unblocks card's). */
export function ProfileCard({ detail }: { detail: CustomerDetailResponse }) {
  const { customer } = detail;
  return (
    <Card aria-labelledby="admin-profile-title">
      <CardHeader className="flex flex-row items-center justify-between gap-3">
        <CardTitle id="admin-profile-title">Profile</CardTitle>
        <SendPasswordReset detail={detail} />
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
          <Row label="Two-factor">
            <TwoFactorStatus detail={detail} />
          </Row>
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

/**
 * Mails the customer the link to set a new password, as "Forgot your password?" does. The link goes
 * to their address only: the Outbox shows it redacted. A staff account's is an admin's to send.
 */
function SendPasswordReset({ detail }: { detail: CustomerDetailResponse }) {
  const { customer } = detail;
  const send = useSendPasswordReset(customer.id);
  return (
    <ReasonDialog
      trigger={
        <Button variant="secondary" size="sm" disabled={customer.status === 'disabled'}>
          <KeyRoundIcon aria-hidden="true" />
          Send password reset
        </Button>
      }
      title="Send a password reset link?"
      description={`A link to set a new password (valid 30 minutes, once) is mailed to ${customer.email}, and to nobody else: staff never see it. Earlier links stop working; the password stays until they use it.`}
      confirmLabel="Send the link"
      failureMessage="The link could not be sent. Please try again."
      onConfirm={async (body) => {
        await send.mutateAsync(body);
        toast.success(`Password reset link sent to ${customer.email}`);
      }}
    />
  );
}

/** Whether the customer's sign-in asks for a code, and support's reset for a lost phone. */
function TwoFactorStatus({ detail }: { detail: CustomerDetailResponse }) {
  const { customer } = detail;
  const reset = useResetTwoFactor(customer.id);
  if (!customer.twoFactorEnabledAt) {
    return <Badge tone="neutral">Off</Badge>;
  }
  return (
    <span className="flex flex-wrap items-center gap-2">
      <Badge tone="success">On</Badge>
      <span className="text-gray-600">
        since <time dateTime={customer.twoFactorEnabledAt}>{formatDate(customer.twoFactorEnabledAt)}</time>
      </span>
      <ReasonDialog
        trigger={
          <Button variant="secondary" size="sm">
            <ShieldOffIcon aria-hidden="true" />
            Reset two-factor
          </Button>
        }
        title="Reset two-factor authentication?"
        description={`Only after ${customer.email} proved who they are (a lost phone): two-factor is turned off, they are signed out everywhere and told by email, and they sign in with their password alone until they turn it on again.`}
        confirmLabel="Reset two-factor"
        confirmVariant="danger"
        failureMessage="Two-factor authentication could not be reset. Please try again."
        onConfirm={async (body) => {
          await reset.mutateAsync(body);
          toast.success('Two-factor authentication reset');
        }}
      />
    </span>
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
