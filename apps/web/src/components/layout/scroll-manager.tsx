import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { scrollBehavior } from '../../lib/motion.ts';

/**
 * On every path or hash change: scroll to the hash target, or to the top when there is none. Not on the
 * first load: there the browser has placed the page (at the hash, where a reload left it, or where the
 * visitor scrolled the prerendered page before the app took over) and moving it would be a jump.
 */
export function ScrollManager() {
  const { pathname, hash } = useLocation();
  const isFirstLoad = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect runs on every path change by design.
  useEffect(() => {
    if (isFirstLoad.current) {
      isFirstLoad.current = false;
      return;
    }
    if (hash) {
      const target = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (target) {
        target.scrollIntoView({ behavior: scrollBehavior(), block: 'start' });
        return;
      }
    }
    window.scrollTo({ top: 0, left: 0 });
  }, [pathname, hash]);
  return null;
}
