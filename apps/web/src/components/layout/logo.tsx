import { Link } from 'react-router';
import { cn } from '../../lib/cn.ts';

export function Logo({ className }: { className?: string }) {
  return (
    <Link
      to="/"
      className={cn('inline-flex items-center gap-2 font-semibold tracking-tight text-gray-900', className)}
    >
      <svg viewBox="0 0 32 32" className="size-7" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="#4f46e5" />
        <path d="M9 8h8.5a5 5 0 0 1 3.2 8.8A5.2 5.2 0 0 1 18 25H9z" fill="#fff" />
        <path d="M13 12v3.5h4a1.75 1.75 0 0 0 0-3.5zm0 7v2.5h4.5a1.25 1.25 0 0 0 0-2.5z" fill="#4f46e5" />
      </svg>
      <span className="text-lg">Bytegate</span>
    </Link>
  );
}
