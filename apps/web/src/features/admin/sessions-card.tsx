import type { AdminSession, CustomerDetail } from '@bytegate/contracts/admin';
import { LogOutIcon, MonitorSmartphoneIcon } from 'lucide-react';
import { toast } from 'sonner';
import { useRevokeSessions } from '../../api/use-admin.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { formatAgo, formatDateTime } from './format.ts';
import { ReasonDialog } from './reason-dialog.tsx';
import { EmptyState } from './states.tsx';

/** The customer's open dashboard sessions, and revoking them all (they are signed out everywhere). */
export function SessionsCard({ customer, sessions }: { customer: CustomerDetail; sessions: AdminSession[] }) {
  const revoke = useRevokeSessions(customer.id);
  return (
    <Card aria-labelledby="admin-sessions-title">
      <CardHeader className="flex flex-row items-center justify-between gap-3">
        <CardTitle id="admin-sessions-title">Sessions</CardTitle>
        <ReasonDialog
          trigger={
            <Button variant="secondary" size="sm" disabled={sessions.length === 0}>
              <LogOutIcon aria-hidden="true" />
              Revoke all
            </Button>
          }
          title="Revoke all sessions?"
          description={`${customer.email} is signed out on every device. Their proxies keep working.`}
          confirmLabel="Revoke sessions"
          confirmVariant="danger"
          failureMessage="The sessions could not be revoked. Please try again."
          onConfirm={async (body) => {
            await revoke.mutateAsync(body);
            toast.success('Sessions revoked');
          }}
        />
      </CardHeader>
      {sessions.length === 0 ? (
        <EmptyState icon={MonitorSmartphoneIcon} title="No open sessions" className="py-8">
          The customer is not signed in anywhere.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-gray-100" aria-label="Open sessions">
          {sessions.map((session) => (
            <li key={session.id} className="px-5 py-3 text-sm sm:px-6">
              <p className="font-medium text-gray-900">
                Active <time dateTime={session.lastSeenAt}>{formatAgo(session.lastSeenAt)}</time>
              </p>
              <p className="text-gray-500">
                Signed in <time dateTime={session.createdAt}>{formatDateTime(session.createdAt)}</time>
              </p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
