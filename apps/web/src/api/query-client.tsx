import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { sessionStore } from '../session/session-store.ts';
import { ApiError } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

/** Server state for the signed-in pages (login, sign-up, dashboard); the public pages load none of it. */
export const queryClient: QueryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
  mutationCache: new MutationCache({
    onError: (error) => {
      // The server asked for a two-factor code: two-factor is on, whatever this page read (or has not
      // read yet, on a slow network), so the form that was sent shows its code field now.
      if (error instanceof ApiError && error.code === 'TWO_FACTOR_REQUIRED') {
        queryClient.setQueryData(queryKeys.twoFactorAsked, true);
        void queryClient.invalidateQueries({ queryKey: queryKeys.security });
      }
    },
  }),
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
