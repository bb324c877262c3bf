import { ACCOUNT_LINK_PAGES } from '@bytegate/contracts/routes';
import type { ComponentType, ReactNode } from 'react';
import { lazy, Suspense } from 'react';
import { Outlet, type RouteObject } from 'react-router';
import { PublicLayout } from './components/layout/public-layout.tsx';
import { ScrollManager } from './components/layout/scroll-manager.tsx';
import { Spinner } from './components/ui/spinner.tsx';
import { Toaster } from './components/ui/toaster.tsx';
import { RedirectIfSignedIn, RequireAuth } from './features/auth/guards.tsx';
import { SessionActivity } from './features/auth/session-activity.tsx';
import { HELP_ENTRIES } from './features/help/articles.ts';
import { HelpArticlePage } from './routes/public/help-article-page.tsx';
import { HelpCenterPage } from './routes/public/help-center-page.tsx';
import { LandingPage } from './routes/public/landing-page.tsx';
import { LegalPage } from './routes/public/legal-page.tsx';
import { LocationsPage } from './routes/public/locations-page.tsx';
import { NotFoundPage } from './routes/public/not-found-page.tsx';
import { usePageHead } from './seo/use-page-head.ts';

// Where pages live: every component a route below renders as its page is a module of routes/, one per
// page: routes/public/ for the pages anyone may open (the site, help, legal, contact, sign-in, sign-up,
// 404), routes/dashboard/ for the signed-in shell and its sections, routes/admin/ for the staff console
// (its pages are the console's own routes below /admin). What a page is built from (forms, cards,
// article loading, hooks of one spec area) lives in features/<area>/, never a page itself.

/**
 * A page of the signed-in part (login, sign-up, dashboard), loaded on first visit together with the
 * server-state cache it reads through: the public pages carry neither.
 */
function withServerState(load: () => Promise<ComponentType>) {
  return lazy(async () => {
    const [{ QueryProvider }, Page] = await Promise.all([import('./api/query-client.tsx'), load()]);
    return {
      default: () => (
        <QueryProvider>
          <Page />
        </QueryProvider>
      ),
    };
  });
}

const DashboardPage = withServerState(() =>
  import('./routes/dashboard/dashboard-page.tsx').then((module) => module.DashboardPage),
);
// The staff console (issue 15): its own chunk, loaded only when /admin is opened; never prerendered.
const ConsolePage = withServerState(() =>
  import('./routes/admin/console-page.tsx').then((module) => module.ConsolePage),
);
const LoginPage = withServerState(() =>
  import('./routes/public/login-page.tsx').then((module) => module.LoginPage),
);
const SignupPage = withServerState(() =>
  import('./routes/public/signup-page.tsx').then((module) => module.SignupPage),
);
// Where mailed links lead, and asking for a reset: signed in or not, so no redirect either way.
const ForgotPasswordPage = withServerState(() =>
  import('./routes/public/forgot-password-page.tsx').then((module) => module.ForgotPasswordPage),
);
const ResetPasswordPage = withServerState(() =>
  import('./routes/public/reset-password-page.tsx').then((module) => module.ResetPasswordPage),
);
const VerifyEmailPage = withServerState(() =>
  import('./routes/public/verify-email-page.tsx').then((module) => module.VerifyEmailPage),
);
const SignInLinkPage = withServerState(() =>
  import('./routes/public/sign-in-link-page.tsx').then((module) => module.SignInLinkPage),
);
const ContactPage = lazy(() =>
  import('./routes/public/contact-page.tsx').then((module) => ({ default: module.ContactPage })),
);

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
      ...(
        [
          [ACCOUNT_LINK_PAGES.forgotPassword, ForgotPasswordPage],
          [ACCOUNT_LINK_PAGES.resetPassword, ResetPasswordPage],
          [ACCOUNT_LINK_PAGES.verifyEmail, VerifyEmailPage],
          [ACCOUNT_LINK_PAGES.signInLink, SignInLinkPage],
        ] as const
      ).map(([path, Page]) => ({
        path,
        element: (
          <Suspense fallback={<FullPageSpinner />}>
            <Page />
          </Suspense>
        ),
      })),
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
        path: '/admin/*',
        element: (
          <RequireAuth>
            <Suspense fallback={<FullPageSpinner />}>
              <ConsolePage />
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
    <>
      {children}
      <Toaster />
    </>
  );
}
