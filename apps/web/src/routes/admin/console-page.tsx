import { isStaffRole, type StaffRole } from '@bytegate/contracts/admin';
import {
  ActivityIcon,
  GaugeIcon,
  InboxIcon,
  LayoutDashboardIcon,
  LogOutIcon,
  NetworkIcon,
  ReceiptTextIcon,
  ScrollTextIcon,
  SendIcon,
  ServerIcon,
  ShieldAlertIcon,
  UsersIcon,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { logout } from '../../api/auth-session.ts';
import { useMe } from '../../api/use-admin.ts';
import { Logo } from '../../components/layout/logo.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ErrorState } from '../../features/admin/states.tsx';
import { roleLabel } from '../../features/admin/status-badges.tsx';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useNoindex } from '../../seo/use-noindex.ts';
import { AuditPage } from './audit-page.tsx';
import { ContactThreadPage } from './contact-thread-page.tsx';
import { CustomerPage } from './customer-page.tsx';
import { CustomersPage } from './customers-page.tsx';
import { ExitsPage } from './exits-page.tsx';
import { HealthPage } from './health-page.tsx';
import { InboxPage } from './inbox-page.tsx';
import { OutboxPage } from './outbox-page.tsx';
import { PaymentsPage } from './payments-page.tsx';
import { SupplyPage } from './supply-page.tsx';
import { ThreadRequestsPage } from './thread-requests-page.tsx';

// The staff console (issue 15): its own lazily loaded chunk at /admin, never prerendered, noindex.
// Staff sign in through the normal login; the role comes from GET /api/auth/me, and every /api/admin
// call checks it again on the server. A customer who opens /admin is told it is for staff (a 403 page).

/** /admin and below: the console's shell around its pages, for staff; a 403 page for anyone else. */
export function ConsolePage() {
  useNoindex();
  const me = useMe();
  if (me.isPending) {
    return (
      <div className="grid min-h-screen place-items-center text-brand-600">
        <Spinner className="size-8" label="Loading the console" />
      </div>
    );
  }
  if (me.isError) {
    return (
      <CenteredPanel title="The console could not be loaded">
        <ErrorState
          error={me.error}
          fallback="Your account could not be checked. Please try again."
          onRetry={() => void me.refetch()}
          isRetrying={me.isFetching}
        />
      </CenteredPanel>
    );
  }
  if (!isStaffRole(me.data.role)) {
    return <NoAccess />;
  }
  const staffRole = me.data.role;
  return (
    <ConsoleShell email={me.data.user.email} staffRole={staffRole}>
      <ConsoleRoutes staffRole={staffRole} />
    </ConsoleShell>
  );
}

/**
 * The console's pages by path. A small table read here rather than react-router's <Routes>: the router's
 * code sits in the chunk every public page loads, and <Routes> (unused elsewhere) would grow it.
 */
function ConsoleRoutes({ staffRole }: { staffRole: StaffRole }) {
  const { pathname } = useLocation();
  const path = pathname.replace(/\/+$/, '');
  if (path === '/admin') {
    return <CustomersPage />;
  }
  if (path === '/admin/audit') {
    return <AuditPage />;
  }
  const customer = /^\/admin\/customers\/([^/]+)$/.exec(path)?.[1];
  if (customer) {
    const userId = decodeURIComponent(customer);
    return <CustomerPage key={userId} userId={userId} staffRole={staffRole} />;
  }
  // The support inbox and the Outbox (features/admin/support).
  const inbox = /^\/admin\/inbox(?:\/([^/]+))?$/.exec(path);
  if (inbox) {
    const messageId = inbox[1] ? decodeURIComponent(inbox[1]) : null;
    return messageId ? <ContactThreadPage key={messageId} messageId={messageId} /> : <InboxPage />;
  }
  const outbox = /^\/admin\/outbox(?:\/([^/]+))?$/.exec(path);
  if (outbox) {
    return <OutboxPage outboxId={outbox[1] ? decodeURIComponent(outbox[1]) : null} />;
  }
  if (path === '/admin/payments') {
    return <PaymentsPage staffRole={staffRole} />;
  }
  if (path === '/admin/thread-requests') {
    return <ThreadRequestsPage staffRole={staffRole} />;
  }
  if (path === '/admin/exits') {
    return <ExitsPage staffRole={staffRole} />;
  }
  if (path === '/admin/supply') {
    return <SupplyPage staffRole={staffRole} />;
  }
  if (path === '/admin/health') {
    return <HealthPage />;
  }
  return <ConsoleNotFound />;
}

const navItems = [
  {
    to: '/admin',
    label: 'Customers',
    icon: UsersIcon,
    matches: (path: string) => /^\/admin\/?$/.test(path) || path.startsWith('/admin/customers'),
  },
  {
    to: '/admin/inbox',
    label: 'Inbox',
    icon: InboxIcon,
    matches: (path: string) => path.startsWith('/admin/inbox'),
  },
  {
    to: '/admin/payments',
    label: 'Payments',
    icon: ReceiptTextIcon,
    matches: (path: string) => path.startsWith('/admin/payments'),
  },
  {
    to: '/admin/thread-requests',
    label: 'Thread requests',
    icon: GaugeIcon,
    matches: (path: string) => path.startsWith('/admin/thread-requests'),
  },
  {
    to: '/admin/exits',
    label: 'Exits',
    icon: ServerIcon,
    matches: (path: string) => path.startsWith('/admin/exits'),
  },
  {
    to: '/admin/supply',
    label: 'Supply',
    icon: NetworkIcon,
    matches: (path: string) => path.startsWith('/admin/supply'),
  },
  {
    to: '/admin/health',
    label: 'Health',
    icon: ActivityIcon,
    matches: (path: string) => path.startsWith('/admin/health'),
  },
  {
    to: '/admin/audit',
    label: 'Audit log',
    icon: ScrollTextIcon,
    matches: (path: string) => path.startsWith('/admin/audit'),
  },
  {
    to: '/admin/outbox',
    label: 'Outbox',
    icon: SendIcon,
    matches: (path: string) => path.startsWith('/admin/outbox'),
  },
];

function ConsoleNav({ className }: { className?: string }) {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Console" className={className}>
      <ul className="flex gap-1">
        {navItems.map((item) => {
          const isCurrent = item.matches(pathname);
          return (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end
                aria-current={isCurrent ? 'page' : undefined}
                className={cn(
                  'inline-flex h-9 items-center gap-2 rounded-lg px-3 text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-brand-500',
                  isCurrent
                    ? 'bg-brand-50 text-brand-700'
                    : 'text-gray-600 hover:bg-gray-100 hover:text-gray-900',
                )}
              >
                <item.icon className="size-4" aria-hidden="true" />
                {item.label}
              </NavLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function ConsoleShell({
  email,
  staffRole,
  children,
}: {
  email: string;
  staffRole: StaffRole;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const onLogout = async () => {
    await logout();
    void navigate('/login', { replace: true });
  };
  return (
    <div className="min-h-screen bg-gray-50">
      <a
        href="#console-main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-30 border-b border-gray-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-7xl items-center gap-3 px-4 sm:px-6">
          <Logo />
          <Badge tone="brand" className="uppercase tracking-wide">
            Console
          </Badge>
          <ConsoleNav className="ml-4 hidden 2xl:block" />
          <div className="ml-auto flex items-center gap-1 sm:gap-2">
            <div className="mr-2 hidden text-right text-sm lg:block">
              <p className="font-medium text-gray-900">{email}</p>
              <p className="text-gray-500">{roleLabel(staffRole)}</p>
            </div>
            <Button asChild variant="ghost" size="sm">
              <Link to="/dashboard">
                <LayoutDashboardIcon aria-hidden="true" />
                <span className="sr-only sm:not-sr-only">Dashboard</span>
              </Link>
            </Button>
            <Button variant="secondary" size="sm" onClick={() => void onLogout()}>
              <LogOutIcon aria-hidden="true" />
              <span className="sr-only sm:not-sr-only">Sign out</span>
            </Button>
          </div>
        </div>
        <ConsoleNav className="overflow-x-auto border-t border-gray-100 px-4 py-2 2xl:hidden" />
      </header>
      <main id="console-main" className="mx-auto w-full min-w-0 max-w-7xl px-4 py-6 sm:px-6 sm:py-8">
        {children}
      </main>
    </div>
  );
}

function CenteredPanel({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <main className="grid min-h-screen place-items-center bg-gray-50 px-4">
      <div className="w-full max-w-md space-y-5 rounded-xl border border-gray-200 bg-white p-6 text-center shadow-xs sm:p-8">
        <h1 className="text-xl font-semibold text-gray-900">{title}</h1>
        {children}
      </div>
    </main>
  );
}

/** The console's 403: a signed-in customer is told it is for staff and sent back to their dashboard. */
function NoAccess() {
  return (
    <CenteredPanel title="This area is for Bytegate staff">
      <span className="mx-auto grid size-12 place-items-center rounded-full bg-amber-50">
        <ShieldAlertIcon className="size-6 text-amber-700" aria-hidden="true" />
      </span>
      <p className="text-sm text-gray-600">
        Your account does not have access to the console. If you think it should, ask an administrator to
        grant you a staff role.
      </p>
      <Button asChild className="w-full">
        <Link to="/dashboard">Go to your dashboard</Link>
      </Button>
    </CenteredPanel>
  );
}

function ConsoleNotFound() {
  useDocumentTitle('Not found · Console');
  return (
    <div className="py-16 text-center">
      <h1 className="text-2xl font-semibold text-gray-900">This console page does not exist</h1>
      <p className="mt-2 text-gray-600">It may have moved. Customers and the audit log are in the menu.</p>
      <Button asChild className="mt-6">
        <Link to="/admin">Back to customers</Link>
      </Button>
    </div>
  );
}
