import type { Locator, Page } from 'playwright-core';

// Layout checks of what a person sees: nothing pushed off the side, things inside the viewport.

/** How far the page scrolls sideways (0 or less: it fits). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Whether the element's box lies wholly within the viewport's width and at least partly within its height. */
export async function isWithinViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) {
    return false;
  }
  return (
    box.x >= 0 &&
    box.x + box.width <= viewport.width + 0.5 &&
    box.y < viewport.height &&
    box.y + box.height > 0
  );
}

/**
 * Scrolls the page up or down only, to bring the element to the middle of the viewport: never sideways,
 * and never inside a scrolling box (which would hide that a person has to scroll it to see the element).
 */
export async function scrollPageTo(locator: Locator): Promise<void> {
  await locator.evaluate((element) => {
    const { top } = element.getBoundingClientRect();
    window.scrollTo({ left: 0, top: top + window.scrollY - window.innerHeight / 2, behavior: 'instant' });
  });
}

/**
 * Starts counting the toasts shown on the page: each toast element is counted once, when it first
 * becomes visible (queued toasts count when their turn comes; one leaving does not). With `isNewOnly`,
 * a toast already showing is not counted. `seen()` answers their texts.
 */
export async function watchToasts(
  page: Page,
  options: { isNewOnly?: boolean } = {},
): Promise<{ seen: () => Promise<string[]> }> {
  const key = `toasts${Date.now()}${Math.random().toString(36).slice(2)}`;
  await page.evaluate(
    ({ name, isNewOnly }) => {
      const shown = new WeakSet<Element>();
      const texts: string[] = [];
      (window as unknown as Record<string, string[]>)[name] = texts;
      const visible = () =>
        Array.from(
          document.querySelectorAll('[data-sonner-toast][data-visible="true"]:not([data-removed="true"])'),
        );
      if (isNewOnly) {
        for (const toast of visible()) {
          shown.add(toast);
        }
      }
      const look = () => {
        for (const toast of visible()) {
          if (!shown.has(toast)) {
            shown.add(toast);
            texts.push(toast.textContent ?? '');
          }
        }
      };
      look();
      window.setInterval(look, 50);
    },
    { name: key, isNewOnly: options.isNewOnly ?? false },
  );
  return {
    seen: () =>
      page.evaluate((name) => [...((window as unknown as Record<string, string[]>)[name] ?? [])], key),
  };
}
