import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { sessionStore } from '../session/session-store.ts';

/** Server state for the signed-in pages (login, sign-up, dashboard); the public pages load none of it. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

// What the server said belongs to one account: when the account changes (a sign-out, a sign-in, another
// tab's), nothing cached for the last one may be shown to the next, such as its proxy credentials.
let cachedFor = sessionStore.get()?.user.email;
sessionStore.subscribe(() => {
  const email = sessionStore.get()?.user.email;
  if (email !== cachedFor) {
    cachedFor = email;
    queryClient.removeQueries();
  }
});

export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
