import { type ReactNode, useEffect, useRef } from 'react';
import { cn } from '../../lib/cn.ts';

interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** Beside the title on wide screens, below it on a phone: the page's actions. */
  actions?: ReactNode;
  /** Above the title: a way back (breadcrumbs). */
  before?: ReactNode;
  className?: string;
}

/**
 * A console page's heading. On arrival the heading takes focus (without scrolling), so a screen reader
 * announces the new page and the next Tab starts from the page's content rather than the old link.
 */
export function PageHeader({ title, description, actions, before, className }: PageHeaderProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <div className={cn('space-y-3', className)}>
      {before}
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1">
          <h1
            ref={heading}
            tabIndex={-1}
            className="text-2xl font-semibold tracking-tight text-gray-900 focus:outline-none"
          >
            {title}
          </h1>
          {description ? <div className="text-sm text-gray-600">{description}</div> : null}
        </div>
        {actions ? <div className="flex flex-wrap gap-2 sm:justify-end">{actions}</div> : null}
      </div>
    </div>
  );
}
