import type { CustomerStatus, UserRole } from '@bytegate/contracts/admin';
import { Badge } from '../../components/ui/badge.tsx';

/** Active or Disabled, with a dot so the state does not rest on colour alone. */
export function CustomerStatusBadge({ status }: { status: CustomerStatus }) {
  const isActive = status === 'active';
  return (
    <Badge tone={isActive ? 'success' : 'danger'} className="gap-1.5">
      <span
        aria-hidden="true"
        className={isActive ? 'size-1.5 rounded-full bg-emerald-500' : 'size-1.5 rounded-full bg-red-500'}
      />
      {isActive ? 'Active' : 'Disabled'}
    </Badge>
  );
}

const ROLE_LABELS: Record<UserRole, string> = {
  customer: 'Customer',
  support: 'Support',
  admin: 'Admin',
  partner: 'Partner',
};

/** A staff (or partner) role as a badge; customers carry none (it is what almost everyone is). */
export function RoleBadge({ role }: { role: UserRole }) {
  if (role === 'customer') {
    return null;
  }
  return <Badge tone="brand">{ROLE_LABELS[role]}</Badge>;
}

export function roleLabel(role: UserRole): string {
  return ROLE_LABELS[role];
}
