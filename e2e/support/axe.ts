import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

// axe-core (WCAG 2.1 A and AA, and axe's best practices: landmarks, heading order, labels, contrast)
// injected into the page as it is, so it checks what a person would meet there. It is evaluated through
// the DevTools protocol, which the page's Content-Security-Policy does not govern (an inline script tag
// would be refused, as it should be).

const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * The page's axe violations, each with up to three of the elements it found them on.
 *
 * Colours are judged as they are painted, so a frame in between (a toast fading in or out, a button's
 * colour on its way after a hover) would fail contrast. axe yields between its rules, and on a busy
 * machine a run takes seconds: a toast's 4 s may run out in the middle of it and start its fade. So the
 * page is checked as a visitor who asked for less motion sees it (prefers-reduced-motion, which the app
 * and its toasts honour): whatever changes during the run changes at once, never through a faded frame.
 * A transition already running when that is set ends as it began, so those are waited for first, in the
 * same task that starts axe.
 */
export async function axeViolations(page: Page): Promise<Violation[]> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  try {
    if (!(await page.evaluate(() => 'axe' in window))) {
      await page.evaluate(axeSource);
    }
    return await page.evaluate(async () => {
      const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
      for (let round = 0; round < 20; round += 1) {
        // A transition starts a frame after the change that causes it: look after two.
        await nextFrame();
        await nextFrame();
        const running = document
          .getAnimations()
          .filter(
            (animation) =>
              animation.playState !== 'finished' &&
              animation.playState !== 'paused' &&
              animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY,
          );
        if (running.length === 0) {
          break;
        }
        await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
      }
      const { axe } = window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<AxeResults> };
      };
      const result = await axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? null,
        help: violation.help,
        targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
      }));
    });
  } finally {
    await page.emulateMedia({ reducedMotion: null });
  }
}
