import type { ContactStatus } from '@bytegate/contracts/admin-support';
import { Badge } from '../../../components/ui/badge.tsx';
import { cn } from '../../../lib/cn.ts';

/** Each status as staff read it, and what it means (the status menu shows both). */
export const CONTACT_STATUS_LABELS: Record<ContactStatus, string> = {
  new: 'New',
  open: 'Open',
  answered: 'Answered',
  closed: 'Closed',
};

export const CONTACT_STATUS_HINTS: Record<ContactStatus, string> = {
  new: 'Nobody has picked it up yet',
  open: 'Someone is working on it',
  answered: 'A reply went out; waiting on the customer',
  closed: 'Nothing more to do',
};

const TONES = {
  new: { tone: 'brand', dot: 'bg-brand-500' },
  open: { tone: 'warning', dot: 'bg-amber-500' },
  answered: { tone: 'success', dot: 'bg-emerald-500' },
  closed: { tone: 'neutral', dot: 'bg-gray-400' },
} as const;

/** A status as a badge, with a dot so it does not rest on colour alone (the word says it too). */
export function ContactStatusBadge({ status, className }: { status: ContactStatus; className?: string }) {
  const { tone, dot } = TONES[status];
  return (
    <Badge tone={tone} className={cn('gap-1.5', className)}>
      <span aria-hidden="true" className={cn('size-1.5 rounded-full', dot)} />
      {CONTACT_STATUS_LABELS[status]}
    </Badge>
  );
}

/** A staff member's name as people read it, falling back to their email. */
export function staffName(member: { firstName: string; lastName: string; email: string }): string {
  const name = `${member.firstName} ${member.lastName}`.trim();
  return name || member.email;
}

/** Up to two initials for an avatar: 'Sam Support' is 'SS'. */
export function initialsOf(member: { firstName: string; lastName: string; email: string }): string {
  const letters = `${member.firstName.charAt(0)}${member.lastName.charAt(0)}`.trim();
  return (letters || member.email.charAt(0)).toUpperCase();
}

/** A round avatar of initials; decorative (the name is always written beside it). */
export function Initials({
  member,
  className,
}: {
  member: { firstName: string; lastName: string; email: string };
  className?: string;
}) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'grid size-6 shrink-0 place-items-center rounded-full bg-brand-100 text-[0.625rem] font-semibold text-brand-800',
        className,
      )}
    >
      {initialsOf(member)}
    </span>
  );
}
