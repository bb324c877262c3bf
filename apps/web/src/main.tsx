import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders, routes } from './app.tsx';
import './styles.css';

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
