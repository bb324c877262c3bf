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

/** The page's axe violations, each with up to three of the elements it found them on. */
export async function axeViolations(page: Page): Promise<Violation[]> {
  // Colours are measured as they are painted: a button still fading in (a CSS transition after a click)
  // or a toast sliding in would be judged on a frame in between, so let finite animations end first. A
  // toast starts its transition a frame after it mounts, so look again after two frames until none runs.
  await page.evaluate(async () => {
    const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    for (let round = 0; round < 20; round += 1) {
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
        return;
      }
      await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
    }
  });
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
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
}
