import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { SectionId } from './sections.ts';

/** What a section may be opened with besides its id: the pool Proxy Settings shows first. */
export interface SectionOptions {
  pool?: string;
}

/**
 * The dashboard's current section, switched in page state (SPEC section 2) and mirrored in the address
 * (`/dashboard?section=orders`), so that a reload keeps it and Back and Forward move between sections.
 * Each switch is a history entry of the same page; nothing is loaded again.
 */
export function useSectionAddress(): {
  sectionId: string;
  options: SectionOptions;
  open: (id: SectionId, options?: SectionOptions) => void;
} {
  const location = useLocation();
  const navigate = useNavigate();
  const params = new URLSearchParams(location.search);
  const sectionId =
    params.get('section') ?? (location.state as { section?: string } | null)?.section ?? 'dashboard';
  const pool = params.get('pool');
  const open = useCallback(
    (id: SectionId, options: SectionOptions = {}) => {
      const next = new URLSearchParams({ section: id });
      if (options.pool) {
        next.set('pool', options.pool);
      }
      // The section already shown is no new step in the history.
      void navigate(
        { pathname: '/dashboard', search: `?${next}` },
        { replace: `?${next}` === location.search },
      );
    },
    [navigate, location.search],
  );
  return { sectionId, options: pool ? { pool } : {}, open };
}
