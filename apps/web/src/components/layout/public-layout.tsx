import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { Spinner } from '../ui/spinner.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';

export function PublicLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="flex-1">
        {/* Pages loaded on demand (contact) keep the header and footer while they arrive. */}
        <Suspense
          fallback={
            <div className="grid min-h-[50vh] place-items-center text-brand-600">
              <Spinner className="size-8" label="Loading" />
            </div>
          }
        >
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
    </div>
  );
}
