// Renders build/og-image.html to public/og-image.png (1200x630) in Chromium:
// `node --import tsx apps/web/build/render-og-image.ts`. The PNG is committed; run this when the design changes.
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const source = fileURLToPath(new URL('./og-image.html', import.meta.url));
const target = fileURLToPath(new URL('../public/og-image.png', import.meta.url));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  await page.goto(`file://${source}`);
  await page.screenshot({ path: target });
} finally {
  await browser.close();
}
