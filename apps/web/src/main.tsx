import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders, routes } from './app.tsx';
import './styles.css';

// zod compiles fast parsers with `new Function` when it may; our CSP has no 'unsafe-eval', and even
// zod's probe for it is reported as a violation. Its global config (read from globalThis, so this costs
// the public pages no zod) turns that off before any form parses.
const zodConfig = globalThis as typeof globalThis & { __zod_globalConfig?: { jitless?: boolean } };
zodConfig.__zod_globalConfig ??= {};
zodConfig.__zod_globalConfig.jitless = true;

const container = document.getElementById('root');
if (!container) {
  throw new Error('#root is missing from index.html');
}
const app = (
  <StrictMode>
    <AppProviders>
      <RouterProvider router={createBrowserRouter(routes)} />
    </AppProviders>
  </StrictMode>
);
// Public pages arrive prerendered: React takes over their HTML. The dashboard's shell is empty.
if (container.hasChildNodes()) {
  hydrateRoot(container, app, {
    onRecoverableError(error) {
      console.error('Hydration recovered from an error:', error);
    },
  });
} else {
  createRoot(container).render(app);
}
