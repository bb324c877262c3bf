import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => {};

/**
 * False while a prerendered page is still only HTML (and while React hydrates it), true once the app runs
 * it. Forms keep their submit button disabled until then: a form submitted before the app takes it over
 * would be sent by the browser itself, as a GET with its fields (a password) in the address.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
