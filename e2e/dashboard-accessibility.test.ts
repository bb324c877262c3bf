// Every dashboard section checked by axe-core at a desktop and a phone width, for an account with a plan
// (so Proxy Setup and Proxy Settings show their full screens), plus the checkout and delete dialogs.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, type Violation } from './support/axe.ts';
import { startSignedInSuite } from './support/fixture.ts';
import { buyDatacenterPlan, openSection } from './support/journeys.ts';
import { DASHBOARD_SECTIONS as SECTIONS } from './support/pages.ts';

let page: Page;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ page, stop } = await startSignedInSuite({
    context: { viewport: { width: 1280, height: 800 } },
  }));
  await buyDatacenterPlan(page);
});
afterAll(() => stop?.());

/** Opens a section (through the drawer on a phone) and waits until it has loaded. */
async function show(section: (typeof SECTIONS)[number], width: number): Promise<void> {
  if (width < 768) {
    await page.getByRole('button', { name: 'Toggle Sidebar' }).click();
  }
  await openSection(page, section.label);
  await page.getByRole('heading', { level: 1, name: section.heading }).waitFor();
  // Loading skeletons and spinners are gone: the checks see the section as a person uses it.
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(
    () => document.querySelectorAll('[role="status"][aria-label^="Loading"]').length === 0,
  );
}

describe('accessibility of the dashboard', () => {
  for (const width of [1280, 375]) {
    it(`has no axe violations in any section at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 800 });
      const found: Record<string, Violation[]> = {};
      for (const section of SECTIONS) {
        await show(section, width);
        const sectionViolations = await axeViolations(page);
        if (sectionViolations.length > 0) {
          found[section.label] = sectionViolations;
        }
      }
      expect(found).toEqual({});
    });
  }

  it('has no axe violations in the order form and the delete-account dialog', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await show(SECTIONS[1] as (typeof SECTIONS)[number], 1280);
    await page.getByRole('button', { name: 'Choose Residential' }).click();
    await page.getByRole('button', { name: /^Purchase/ }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Cancel' }).click();

    await show(SECTIONS[6] as (typeof SECTIONS)[number], 1280);
    await page.getByRole('button', { name: 'Delete Account' }).first().click();
    await page.getByRole('dialog').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
  });
});
