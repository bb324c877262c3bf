import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { Button } from '../../components/ui/button.tsx';

export function NotFoundPage() {
  const location = useLocation();
  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', location.pathname);
  }, [location.pathname]);
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center px-4 py-20 text-center">
      <p className="text-7xl font-bold tracking-tight text-brand-600">404</p>
      <h1 className="mt-4 text-2xl font-semibold text-gray-900">Oops! Page not found</h1>
      <p className="mt-2 text-gray-600">The page you are looking for does not exist or has moved.</p>
      <Button asChild className="mt-8">
        <Link to="/">Return to Home</Link>
      </Button>
      <p className="mt-6 text-sm text-gray-600">
        Looking for a guide? Try the{' '}
        <Link to="/help" className="font-medium text-brand-600 hover:text-brand-700">
          Help Center
        </Link>{' '}
        or{' '}
        <Link to="/contact" className="font-medium text-brand-600 hover:text-brand-700">
          contact us
        </Link>
        .
      </p>
    </div>
  );
}
