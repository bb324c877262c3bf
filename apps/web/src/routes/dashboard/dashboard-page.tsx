import { PanelLeftIcon } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { useNavigate } from 'react-router';
import { logout } from '../../api/auth-session.ts';
import { Logo } from '../../components/layout/logo.tsx';
import { Button } from '../../components/ui/button.tsx';
import { OrdersSection } from '../../features/billing/orders-section.tsx';
import { PlansSection } from '../../features/billing/plans-section.tsx';
import { TestModeBanner } from '../../features/billing/test-mode-banner.tsx';
import { TopupSection } from '../../features/billing/topup-section.tsx';
import { VerifyEmailBanner } from '../../features/email-verification/verify-email-banner.tsx';
import { ProxySettingsSection } from '../../features/proxy-settings/proxy-settings-section.tsx';
import { ProxySetupSection } from '../../features/proxy-setup/proxy-setup-section.tsx';
import { StatisticsSection } from '../../features/stats/statistics-section.tsx';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useSession } from '../../session/session-store.ts';
import { ComingSoonSection } from './sections/coming-soon-section.tsx';
import { OverviewSection } from './sections/overview-section.tsx';
import { UserSettingsSection } from './sections/user-settings-section.tsx';
import { findSection, type SectionId } from './sections.ts';
import { SidebarNav } from './sidebar.tsx';
import { type SectionOptions, useSectionAddress } from './use-section-address.ts';
import { useSidebarState } from './use-sidebar-state.ts';

/**
 * The signed-in shell: a sidebar of sections switched in page state (mirrored in the address), a header
 * with the section's title.
 */
export function DashboardPage() {
  const navigate = useNavigate();
  const session = useSession();
  const { sectionId, options, open } = useSectionAddress();
  const sidebar = useSidebarState();
  const section = findSection(sectionId);
  useDocumentTitle(section ? section.title : 'Dashboard');

  const select = (id: SectionId, sectionOptions?: SectionOptions) => {
    open(id, sectionOptions);
    sidebar.setDrawerOpen(false);
    window.scrollTo({ top: 0 });
  };
  const onLogout = async () => {
    await logout();
    void navigate('/login', { replace: true });
  };
  const nav = (isCollapsed: boolean) => (
    <SidebarNav
      current={sectionId}
      isCollapsed={isCollapsed}
      onSelect={select}
      onLogout={() => void onLogout()}
    />
  );

  return (
    <div className="flex min-h-screen bg-gray-50">
      <a
        href="#dashboard-main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      {sidebar.isMobile ? (
        <DialogPrimitive.Root open={sidebar.isDrawerOpen} onOpenChange={sidebar.setDrawerOpen}>
          <DialogPrimitive.Portal>
            <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-gray-950/40" />
            <DialogPrimitive.Content
              data-sidebar="sidebar"
              data-state={sidebar.isDrawerOpen ? 'expanded' : 'collapsed'}
              className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-white shadow-xl focus:outline-none"
            >
              <DialogPrimitive.Title className="sr-only">Navigation</DialogPrimitive.Title>
              <DialogPrimitive.Description className="sr-only">
                Dashboard sections
              </DialogPrimitive.Description>
              <div className="flex h-16 items-center border-b border-gray-200 px-4">
                <Logo />
              </div>
              {nav(false)}
            </DialogPrimitive.Content>
          </DialogPrimitive.Portal>
        </DialogPrimitive.Root>
      ) : (
        <aside
          data-sidebar="sidebar"
          data-state={sidebar.isExpanded ? 'expanded' : 'collapsed'}
          className={cn(
            'sticky top-0 flex h-screen shrink-0 flex-col border-r border-gray-200 bg-white transition-[width] duration-200',
            sidebar.isExpanded ? 'w-64' : 'w-[4.5rem]',
          )}
        >
          <div
            className={cn(
              'flex h-16 items-center border-b border-gray-200',
              sidebar.isExpanded ? 'px-5' : 'justify-center',
            )}
          >
            {sidebar.isExpanded ? <Logo /> : <Logo className="[&>span]:sr-only" />}
          </div>
          {nav(!sidebar.isExpanded)}
        </aside>
      )}

      <div className="flex min-w-0 flex-1 flex-col">
        <TestModeBanner />
        <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b border-gray-200 bg-white/90 px-4 backdrop-blur sm:px-6">
          <Button
            variant="ghost"
            size="icon"
            aria-label="Toggle Sidebar"
            aria-expanded={sidebar.isMobile ? sidebar.isDrawerOpen : sidebar.isExpanded}
            title="Toggle sidebar (Ctrl+B)"
            onClick={sidebar.toggle}
          >
            <PanelLeftIcon />
          </Button>
          <h1 className="shrink-0 truncate text-lg font-semibold text-gray-900">
            {section ? section.title : 'Coming soon'}
          </h1>
          {/* A long name or address is cut short here (whole in its tooltip), never the section title. */}
          <div className="ml-auto hidden min-w-0 text-right text-sm sm:block">
            <p
              className="truncate font-medium text-gray-900"
              title={`${session?.user.firstName ?? ''} ${session?.user.lastName ?? ''}`}
            >
              {session?.user.firstName} {session?.user.lastName}
            </p>
            <p className="truncate text-gray-500" title={session?.user.email}>
              {session?.user.email}
            </p>
          </div>
        </header>
        <main
          id="dashboard-main"
          className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-6 sm:px-6 sm:py-8"
        >
          <VerifyEmailBanner />
          <SectionContent id={sectionId} options={options} onNavigate={select} />
        </main>
      </div>
    </div>
  );
}

function SectionContent({
  id,
  options,
  onNavigate,
}: {
  id: string;
  options: SectionOptions;
  onNavigate: (id: SectionId, options?: SectionOptions) => void;
}) {
  switch (id) {
    case 'dashboard':
      return <OverviewSection onNavigate={onNavigate} />;
    case 'statistics':
      return <StatisticsSection />;
    case 'user-settings':
      return <UserSettingsSection />;
    case 'plans':
      return <PlansSection onNavigate={onNavigate} />;
    case 'orders':
      return <OrdersSection />;
    case 'topup':
      return <TopupSection />;
    case 'proxy-setup':
      return <ProxySetupSection onNavigate={onNavigate} />;
    case 'proxy-settings':
      return <ProxySettingsSection key={options.pool} initialPool={options.pool} onNavigate={onNavigate} />;
    default:
      return <ComingSoonSection id={id} />;
  }
}
