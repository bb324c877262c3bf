import { HELP_ARTICLE_PATHS } from '@bytegate/contracts/routes';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { createBrowserRouter, Outlet, RouterProvider } from 'react-router';
import { PublicLayout } from './components/layout/public-layout.tsx';
import { ScrollManager } from './components/layout/scroll-manager.tsx';
import { Spinner } from './components/ui/spinner.tsx';
import { Toaster } from './components/ui/toaster.tsx';
import { RedirectIfSignedIn, RequireAuth } from './features/auth/guards.tsx';
import { SessionActivity } from './features/auth/session-activity.tsx';
import { LandingPage } from './routes/public/landing-page.tsx';
import { NotFoundPage } from './routes/public/not-found-page.tsx';
import { PlaceholderPage } from './routes/public/placeholder-page.tsx';

// The dashboard is split away from the public pages, so the landing page loads little JavaScript.
const DashboardPage = lazy(() =>
  import('./routes/dashboard/dashboard-page.tsx').then((module) => ({ default: module.DashboardPage })),
);

const LoginPage = lazy(() =>
  import('./features/auth/login-page.tsx').then((module) => ({ default: module.LoginPage })),
);
const SignupPage = lazy(() =>
  import('./features/auth/signup-page.tsx').then((module) => ({ default: module.SignupPage })),
);

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

function titleFromPath(path: string): string {
  const slug = path.split('/').at(-1) ?? '';
  return slug
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

function Root() {
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

const router = createBrowserRouter([
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
          {
            path: '/contact',
            element: (
              <PlaceholderPage
                title="Contact"
                intro="Write to our support team: we answer around the clock."
              />
            ),
          },
          {
            path: '/privacy',
            element: (
              <PlaceholderPage
                title="Privacy Policy"
                intro="How Bytegate handles your data. We keep logs for up to 30 days."
              />
            ),
          },
          {
            path: '/terms',
            element: (
              <PlaceholderPage title="Terms of Service" intro="The terms that govern your use of Bytegate." />
            ),
          },
          {
            path: '/locations',
            element: (
              <PlaceholderPage
                title="Proxies by Location"
                intro="Residential, mobile and datacenter IPs in 195 countries."
              />
            ),
          },
          {
            path: '/help',
            element: (
              <PlaceholderPage
                title="Help Center"
                intro="Guides for getting started, targeting, protocols and troubleshooting."
              />
            ),
          },
          ...HELP_ARTICLE_PATHS.map((path) => ({
            path,
            element: (
              <PlaceholderPage title={titleFromPath(path)} intro="This help article is being written." />
            ),
          })),
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>
  );
}
