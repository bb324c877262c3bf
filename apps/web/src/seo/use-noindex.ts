import { useEffect } from 'react';

/**
 * Asks search engines not to index the page while it is shown: a `<meta name="robots" content="noindex">`
 * added to the head on mount and removed on unmount. For pages that are never prerendered (the staff
 * console), where no build-time head can say it.
 */
export function useNoindex(): void {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.append(meta);
    return () => meta.remove();
  }, []);
}
