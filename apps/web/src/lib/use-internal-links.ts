import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';

/**
 * A click handler for rendered HTML (Markdown articles): links to the app's own pages navigate in the
 * app instead of reloading it; new-tab clicks and external links keep the browser's behaviour.
 */
export function useInternalLinks(): (event: MouseEvent<HTMLElement>) => void {
  const navigate = useNavigate();
  return (event) => {
    const link = (event.target as HTMLElement).closest('a');
    const href = link?.getAttribute('href');
    if (href?.startsWith('/') && !event.metaKey && !event.ctrlKey && !event.shiftKey && event.button === 0) {
      event.preventDefault();
      void navigate(href);
    }
  };
}
