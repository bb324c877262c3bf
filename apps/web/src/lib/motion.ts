/** 'smooth', unless the visitor asked for less motion (prefers-reduced-motion): then the jump is at once. */
export function scrollBehavior(): ScrollBehavior {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}
