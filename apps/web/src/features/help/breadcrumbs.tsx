import { ChevronRightIcon } from 'lucide-react';
import { Link } from 'react-router';

/** Where a page sits: each step a link but the last, which is the page itself. */
export function Breadcrumbs({ trail }: { trail: Array<{ label: string; to?: string }> }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm">
      <ol className="flex flex-wrap items-center gap-1 text-gray-500">
        {trail.map((step, i) => (
          <li key={step.label} className="flex items-center gap-1">
            {i > 0 ? <ChevronRightIcon className="size-4 text-gray-400" aria-hidden="true" /> : null}
            {step.to ? (
              <Link to={step.to} className="hover:text-gray-900">
                {step.label}
              </Link>
            ) : (
              <span aria-current="page" className="font-medium text-gray-900">
                {step.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
