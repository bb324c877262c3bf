import { Link } from 'react-router';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** A public page whose full content arrives with the public-site work; it already has its title and heading. */
export function PlaceholderPage({ title, intro }: { title: string; intro: string }) {
  useDocumentTitle(title);
  return (
    <div className="mx-auto max-w-3xl px-4 py-20 sm:px-6">
      <h1 className="text-3xl font-semibold tracking-tight text-gray-900">{title}</h1>
      <p className="mt-4 text-lg text-gray-600">{intro}</p>
      <p className="mt-8 text-sm text-gray-500">
        Questions in the meantime?{' '}
        <Link to="/contact" className="font-medium text-brand-600 hover:text-brand-700">
          Contact us
        </Link>
        .
      </p>
    </div>
  );
}
