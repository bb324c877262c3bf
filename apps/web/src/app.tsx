import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { lazy, Suspense } from 'react';
import { Outlet, type RouteObject } from 'react-router';
import { PublicLayout } from './components/layout/public-layout.tsx';
import { ScrollManager } from './components/layout/scroll-manager.tsx';
import { Spinner } from './components/ui/spinner.tsx';
import { Toaster } from './components/ui/toaster.tsx';
import { RedirectIfSignedIn, RequireAuth } from './features/auth/guards.tsx';
import { SessionActivity } from './features/auth/session-activity.tsx';
import { HELP_ENTRIES } from './features/help/articles.ts';
import { HelpArticlePage } from './features/help/help-article-page.tsx';
import { HelpCenterPage } from './features/help/help-center-page.tsx';
import { LegalPage } from './features/legal/legal-page.tsx';
import { LocationsPage } from './features/locations/locations-page.tsx';
import { LandingPage } from './routes/public/landing-page.tsx';
import { NotFoundPage } from './routes/public/not-found-page.tsx';
import { usePageHead } from './seo/use-page-head.ts';

// The dashboard is split away from the public pages, so the landing page loads little JavaScript.
const DashboardPage = lazy(() =>
  import('./routes/dashboard/dashboard-page.tsx').then((module) => ({ default: module.DashboardPage })),
);

const LoginPage = lazy(() =>
  import('./features/auth/login-page.tsx').then((module) => ({ default: module.LoginPage })),
);
const ContactPage = lazy(() =>
  import('./features/contact/contact-page.tsx').then((module) => ({ default: module.ContactPage })),
);
const SignupPage = lazy(() =>
  import('./features/auth/signup-page.tsx').then((module) => ({ default: module.SignupPage })),
);

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

function Root() {
  usePageHead();
  return (
    <>
      <ScrollManager />
      <SessionActivity />
      <Outlet />
    </>
  );
}

function FullPageSpinner() {
  return (
    <div className="grid min-h-screen place-items-center text-brand-600">
      <Spinner className="size-8" label="Loading" />
    </div>
  );
}

/** Every route of the app: the browser's router and the prerenderer's static router both run these. */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      {
        path: '/login',
        element: (
          <RedirectIfSignedIn>
            <Suspense fallback={<FullPageSpinner />}>
              <LoginPage />
            </Suspense>
          </RedirectIfSignedIn>
        ),
      },
      {
        path: '/signup',
        element: (
          <RedirectIfSignedIn>
            <Suspense fallback={<FullPageSpinner />}>
              <SignupPage />
            </Suspense>
          </RedirectIfSignedIn>
        ),
      },
      {
        path: '/dashboard',
        element: (
          <RequireAuth>
            <Suspense fallback={<FullPageSpinner />}>
              <DashboardPage />
            </Suspense>
          </RequireAuth>
        ),
      },
      {
        element: <PublicLayout />,
        children: [
          { path: '/', element: <LandingPage /> },
          { path: '/contact', element: <ContactPage /> },
          { path: '/privacy', element: <LegalPage document="privacy" /> },
          { path: '/terms', element: <LegalPage document="terms" /> },
          { path: '/locations', element: <LocationsPage /> },
          { path: '/help', element: <HelpCenterPage /> },
          ...HELP_ENTRIES.map((entry) => ({
            path: entry.path,
            element: <HelpArticlePage entry={entry} />,
          })),
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

/** What every page runs inside, around the router (the browser's or the prerenderer's). */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
