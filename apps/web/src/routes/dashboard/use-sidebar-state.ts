import {
  MOBILE_BREAKPOINT_PX,
  SIDEBAR_COOKIE_MAX_AGE_S,
  SIDEBAR_COOKIE_NAME,
} from '@bytegate/contracts/constants';
import { useCallback, useEffect, useState } from 'react';
import { readCookie, writeCookie } from '../../lib/cookies.ts';

function useIsMobile(): boolean {
  const query = `(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`;
  const [isMobile, setMobile] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const media = window.matchMedia(query);
    const onChange = () => setMobile(media.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, [query]);
  return isMobile;
}

/**
 * The sidebar's state: expanded or collapsed on wide screens (kept in a cookie for 7 days), a drawer
 * that opens and closes under 768 px. Ctrl+B or Cmd+B toggles whichever applies.
 */
export function useSidebarState() {
  const isMobile = useIsMobile();
  const [isExpanded, setExpanded] = useState(() => readCookie(SIDEBAR_COOKIE_NAME) !== 'false');
  const [isDrawerOpen, setDrawerOpen] = useState(false);

  const setExpandedAndRemember = useCallback((expanded: boolean) => {
    setExpanded(expanded);
    writeCookie(SIDEBAR_COOKIE_NAME, String(expanded), SIDEBAR_COOKIE_MAX_AGE_S);
  }, []);

  const toggle = useCallback(() => {
    if (isMobile) {
      setDrawerOpen((open) => !open);
    } else {
      setExpandedAndRemember(!isExpanded);
    }
  }, [isMobile, isExpanded, setExpandedAndRemember]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === 'b' && (event.ctrlKey || event.metaKey) && !event.altKey) {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [toggle]);

  return { isMobile, isExpanded, isDrawerOpen, setDrawerOpen, toggle };
}
