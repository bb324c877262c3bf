import {
  CONTACT_STATUSES,
  type ContactStatus,
  type ContactThreadResponse,
} from '@bytegate/contracts/admin-support';
import { ArrowRightIcon, UserRoundIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { errorMessage } from '../../../api/api-client.ts';
import { useAssignContact, useAssignees, useSetContactStatus } from '../../../api/use-admin-support.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { formatDateTime } from '../format.ts';
import { CustomerStatusBadge } from '../status-badges.tsx';
import {
  CONTACT_STATUS_HINTS,
  CONTACT_STATUS_LABELS,
  ContactStatusBadge,
  staffName,
} from './contact-status.tsx';
import { MenuSelect } from './menu-select.tsx';

const UNASSIGNED = 'unassigned';

/** A thread's state and who it is from: status and assignee (each changes at once), the customer. */
export function ThreadDetails({ thread }: { thread: ContactThreadResponse }) {
  const { message, customer } = thread;
  const setStatus = useSetContactStatus(message.id);
  const assign = useAssignContact(message.id);
  const assignees = useAssignees();
  const me = assignees.data?.assignees.find((staff) => staff.isMe);

  const changeStatus = async (value: string) => {
    const status = value as ContactStatus;
    if (status === message.status) {
      return;
    }
    try {
      await setStatus.mutateAsync({ status });
      toast.success(`Marked ${CONTACT_STATUS_LABELS[status].toLowerCase()}`);
    } catch (error) {
      toast.error(errorMessage(error, 'The status could not be changed. Please try again.'));
    }
  };
  const changeAssignee = async (value: string) => {
    const assigneeUserId = value === UNASSIGNED ? null : value;
    if (assigneeUserId === (message.assignee?.id ?? null)) {
      return;
    }
    try {
      const thread = await assign.mutateAsync({ assigneeUserId });
      const now = thread.message.assignee;
      toast.success(now ? `Assigned to ${now.id === me?.id ? 'you' : staffName(now)}` : 'Unassigned');
    } catch (error) {
      toast.error(errorMessage(error, 'The message could not be assigned. Please try again.'));
    }
  };

  // The current assignee is listed even when no longer assignable (a role revoked since).
  const staff = assignees.data?.assignees ?? [];
  const options = [
    { value: UNASSIGNED, label: 'Unassigned', hint: 'Nobody owns it' },
    ...(message.assignee && !staff.some((member) => member.id === message.assignee?.id)
      ? [{ value: message.assignee.id, label: staffName(message.assignee), hint: message.assignee.email }]
      : []),
    ...staff.map((member) => ({
      value: member.id,
      label: member.isMe ? `${staffName(member)} (you)` : staffName(member),
      hint: member.email,
    })),
  ];

  return (
    <Card aria-labelledby="thread-details-title">
      <CardHeader>
        <CardTitle id="thread-details-title">Details</CardTitle>
      </CardHeader>
      <CardContent className="space-y-5">
        <MenuSelect
          label="Status"
          value={message.status}
          display={<ContactStatusBadge status={message.status} />}
          options={CONTACT_STATUSES.map((status) => ({
            value: status,
            label: CONTACT_STATUS_LABELS[status],
            hint: CONTACT_STATUS_HINTS[status],
          }))}
          onSelect={(value) => void changeStatus(value)}
          isBusy={setStatus.isPending}
        />
        <div className="space-y-2">
          <MenuSelect
            label="Assignee"
            value={message.assignee?.id ?? UNASSIGNED}
            display={
              message.assignee ? (
                <span className="truncate">
                  {staffName(message.assignee)}
                  {message.assignee.id === me?.id ? ' (you)' : ''}
                </span>
              ) : (
                <span className="text-gray-600">Unassigned</span>
              )
            }
            options={options}
            onSelect={(value) => void changeAssignee(value)}
            isBusy={assign.isPending}
          />
          {me && message.assignee?.id !== me.id ? (
            <Button
              variant="link"
              size="sm"
              className="h-auto px-0"
              onClick={() => void changeAssignee(me.id)}
              disabled={assign.isPending}
            >
              Assign to me
            </Button>
          ) : null}
        </div>

        <dl className="space-y-3 border-t border-gray-100 pt-4 text-sm">
          <Row label="Customer">
            {customer ? (
              <div className="space-y-1.5">
                <Link
                  to={`/admin/customers/${customer.id}`}
                  className="inline-flex items-center gap-1 font-medium text-brand-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
                >
                  {customer.firstName} {customer.lastName}
                  <ArrowRightIcon className="size-3.5" aria-hidden="true" />
                </Link>
                <p className="wrap-anywhere text-gray-600">{customer.email}</p>
                <div className="flex flex-wrap gap-1.5">
                  <Badge>
                    {customer.matchedBy === 'account'
                      ? 'Signed in when writing'
                      : 'Same email as the account'}
                  </Badge>
                  {customer.status === 'disabled' ? <CustomerStatusBadge status="disabled" /> : null}
                </div>
              </div>
            ) : (
              <span className="inline-flex items-start gap-1.5 text-gray-600">
                <UserRoundIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                No account uses this email
              </span>
            )}
          </Row>
          <Row label="From">
            <span className="wrap-anywhere">
              {message.name} &lt;{message.email}&gt;
            </span>
          </Row>
          <Row label="Received">
            <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
          </Row>
          <Row label="Last change">
            <time dateTime={message.updatedAt}>{formatDateTime(message.updatedAt)}</time>
          </Row>
          {message.ipAddress ? (
            <Row label="Sent from">
              <code className="font-mono text-xs wrap-anywhere">{message.ipAddress}</code>
            </Row>
          ) : null}
        </dl>
      </CardContent>
    </Card>
  );
}

/** A label above its value: the sidebar is narrow, and emails are long. */
function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="space-y-0.5">
      <dt className="text-xs font-medium text-gray-600">{label}</dt>
      <dd className="min-w-0 text-gray-900">{children}</dd>
    </div>
  );
}
