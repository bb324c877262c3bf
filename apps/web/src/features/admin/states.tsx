import type { LucideIcon } from 'lucide-react';
import { RotateCwIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { ApiError, errorMessage } from '../../api/api-client.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { cn } from '../../lib/cn.ts';

// The console's three states besides the data itself: loading (skeletons, announced once), empty (what
// would be here and why it is not), and failed (the server's message and a way to try again).

/** Skeleton rows in place of a list, announced to screen readers as loading `what`. */
export function LoadingRows({
  what,
  rows = 4,
  className,
}: {
  what: string;
  rows?: number;
  className?: string;
}) {
  return (
    <div role="status" aria-label={`Loading ${what}`} className={cn('space-y-3', className)}>
      {Array.from({ length: rows }, (_, row) => `row-${row}`).map((key) => (
        <Skeleton key={key} className="h-10 w-full" />
      ))}
    </div>
  );
}

export function EmptyState({
  icon: Icon,
  title,
  children,
  className,
}: {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('flex flex-col items-center gap-2 px-4 py-10 text-center', className)}>
      <span className="grid size-11 place-items-center rounded-full bg-gray-100">
        <Icon className="size-5 text-gray-500" aria-hidden="true" />
      </span>
      <p className="font-medium text-gray-900">{title}</p>
      {children ? <div className="max-w-sm text-sm text-gray-600">{children}</div> : null}
    </div>
  );
}

/** A failed read: the server's message (or `fallback`) and a retry button. */
export function ErrorState({
  error,
  fallback,
  onRetry,
  isRetrying,
}: {
  error: unknown;
  fallback: string;
  onRetry: () => void;
  isRetrying?: boolean;
}) {
  return (
    <Alert tone="error" className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <span>{errorMessage(error, fallback)}</span>
      <Button type="button" variant="secondary" size="sm" onClick={onRetry} isLoading={isRetrying}>
        {isRetrying ? null : <RotateCwIcon aria-hidden="true" />}
        Try again
      </Button>
    </Alert>
  );
}

/** Whether a failed read was the server saying there is no such thing (a 404). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
