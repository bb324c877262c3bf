import { readFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { screenshotDir } from './support/browser.ts';
import { startSignedInSuite } from './support/fixture.ts';
import { logInThroughForm, openSection, type TestAccount } from './support/journeys.ts';
import type { RunningServer } from './support/server.ts';

// Two-factor authentication (issue 18) as a person uses it: turned on in User Settings with an
// authenticator app (the test computes the app's codes with otpauth from the key the page shows),
// recovery codes saved, then signing in with the password and a code, and with a recovery code.

let server: RunningServer;
let page: Page;
let account: TestAccount;
let stop: () => Promise<void>;
/** The TOTP secret read from the page, and the recovery codes it showed. */
let secret = '';
let recoveryCodes: string[] = [];

beforeAll(async () => {
  ({ server, page, account, stop } = await startSignedInSuite({
    context: {
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
      acceptDownloads: true,
    },
  }));
});
afterAll(() => stop?.());

const securityCard = () => page.getByRole('region', { name: 'Security' });
const saveViewport = (name: string) => page.screenshot({ path: `${screenshotDir}/${name}.png` });

/** The app's code `steps` time steps from now, as an authenticator app computes it. */
function appCode(steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });
}

/** When the 30 s step is about to end, waits for the next one: a code typed now is then checked in its step. */
async function awaitFreshStep(): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 5000) {
    await page.waitForTimeout(left + 200);
  }
}

async function expectFocused(element: Locator): Promise<void> {
  await expect.poll(() => element.evaluate((node) => node === document.activeElement)).toBe(true);
}

/** Axe finds nothing at 1280 and 375 px, nothing overflows sideways, and a screenshot of each is kept. */
async function checkBothWidths(name: string): Promise<void> {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForLoadState('networkidle');
    expect(await axeViolations(page), `${name} at ${width}`).toEqual([]);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await saveViewport(`${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function logOut(): Promise<void> {
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL(`${server.url}/login`);
}

describe('two-factor authentication', () => {
  it('turns on in User Settings: password, the QR code and key, a code from the app, then recovery codes', async () => {
    await openSection(page, 'User Settings');
    await securityCard().getByText('Ask for a code from your phone at sign-in.').waitFor();
    await securityCard().getByRole('button', { name: 'Turn on' }).click();
    const start = page.getByRole('dialog', { name: 'Turn on two-factor authentication' });
    await start.waitFor();
    await expectFocused(start.getByLabel('Password'));
    await checkBothWidths('two-factor-password');
    await start.getByLabel('Password').fill('not my password');
    await start.getByRole('button', { name: 'Continue' }).click();
    await start.getByText('Password is incorrect').waitFor();
    await start.getByLabel('Password').fill(account.password);
    await start.getByRole('button', { name: 'Continue' }).click();

    const scan = page.getByRole('dialog', { name: 'Scan the QR code' });
    await scan.waitFor();
    await scan.getByRole('img', { name: 'QR code to add Bytegate to your authenticator app' }).waitFor();
    const shown = (await scan.getByTestId('two-factor-secret').textContent()) ?? '';
    expect(shown).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
    secret = shown.replaceAll(' ', '');
    expect(
      await scan.getByRole('link', { name: 'Open in your authenticator app' }).getAttribute('href'),
    ).toContain(`secret=${secret}`);
    const codeField = scan.getByLabel('Code from the app');
    expect(await codeField.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await codeField.getAttribute('inputmode')).toBe('numeric');
    await checkBothWidths('two-factor-scan');

    // A wrong code is said under the field, which is cleared and focused for the next try.
    await codeField.fill(appCode() === '000000' ? '111111' : '000000');
    await scan.getByRole('button', { name: 'Turn on' }).click();
    await scan.getByText('That code is not right').waitFor();
    await expectFocused(codeField);
    expect(await codeField.getAttribute('aria-invalid')).toBe('true');
    await awaitFreshStep();
    // The previous step's code (the app's clock may lag), so that the current one is still unused.
    await codeField.fill(appCode(-1));
    await scan.getByRole('button', { name: 'Turn on' }).click();

    const saved = page.getByRole('dialog', { name: 'Save your recovery codes' });
    await saved.waitFor();
    recoveryCodes = await saved
      .getByRole('list', { name: 'Recovery codes' })
      .getByRole('listitem')
      .allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) {
      expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}$/);
    }
    await saved.getByRole('button', { name: 'Copy', exact: true }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    for (const code of recoveryCodes) {
      expect(copied).toContain(code);
    }
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      saved.getByRole('button', { name: 'Download .txt' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('bytegate-recovery-codes.txt');
    const file = readFileSync((await download.path()) ?? '', 'utf8');
    expect(file).toContain(`Bytegate recovery codes for ${account.email}`);
    expect(file.trim().split('\n').slice(-10)).toEqual(recoveryCodes);
    await checkBothWidths('two-factor-recovery-codes');
    // A click beside the dialog does not throw the codes away.
    await page.mouse.click(5, 5);
    expect(await saved.isVisible()).toBe(true);
    await saved.getByRole('button', { name: 'I saved them' }).click();
    await saved.waitFor({ state: 'detached' });

    await securityCard().getByText('10 recovery codes left.').waitFor();
    await securityCard().getByText('On', { exact: true }).waitFor();
    await securityCard().screenshot({ path: `${screenshotDir}/two-factor-card-on-1280.png` });
  });

  it('asks for the code after the password at sign-in, and signs in with the code from the app', async () => {
    await logOut();
    await logInThroughForm(page, server.url, account.email, account.password);
    await page.getByRole('heading', { level: 1, name: 'Two-factor authentication' }).waitFor();
    const code = page.getByLabel('Authentication code');
    await expectFocused(code);
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await code.getAttribute('inputmode')).toBe('numeric');
    // No session yet.
    expect((await page.context().cookies()).some((cookie) => cookie.name === 'bytegate_session')).toBe(false);
    await checkBothWidths('two-factor-code-step');

    // Empty, then wrong: each said under the field.
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Enter the code from your authenticator app.').waitFor();
    await code.fill('000000' === appCode() ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('That code is not right').waitFor();
    await expectFocused(code);
    await checkBothWidths('two-factor-code-error');

    // Back returns to the password, with the email kept.
    await page.getByRole('button', { name: 'Back' }).click();
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await awaitFreshStep();
    await page.getByLabel('Authentication code').fill(appCode());
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/dashboard`);
    await expect.poll(() => page.getByText('Login successful').count()).toBe(1);
  });

  it('signs in with a recovery code instead, once', async () => {
    await logOut();
    await logInThroughForm(page, server.url, account.email, account.password);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    const field = page.getByLabel('Recovery code');
    await expectFocused(field);
    expect(await field.getAttribute('inputmode')).toBe('text');
    await checkBothWidths('two-factor-recovery-step');
    await field.fill((recoveryCodes[0] ?? '').toUpperCase());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${server.url}/dashboard`);
    await openSection(page, 'User Settings');
    await securityCard().getByText('9 recovery codes left.').waitFor();

    // The same recovery code does not work twice.
    await logOut();
    await logInThroughForm(page, server.url, account.email, account.password);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('That code is not right, or it was already used.').waitFor();
    await page.getByLabel('Recovery code').fill(recoveryCodes[1] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${server.url}/dashboard`);
  });

  it('asks for a code in the dialogs of actions asked again: an API key with a recovery code', async () => {
    await openSection(page, 'User Settings');
    // The form asks for the code because the account's status says two-factor is on: once it has arrived.
    await securityCard().getByText('8 recovery codes left.').waitFor();
    const keys = page.getByRole('region', { name: 'API Keys' });
    await keys.getByRole('button', { name: 'Create API Key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API Key' });
    await dialog.getByLabel('Name').fill('Two-factor script');
    await dialog.getByLabel('Current Password').fill(account.password);
    await dialog.getByRole('button', { name: 'Create Key' }).click();
    const code = dialog.getByLabel('Two-factor code');
    await dialog.getByText('Enter the code from your authenticator app.').waitFor();
    await expectFocused(code);
    await checkBothWidths('two-factor-api-key-dialog');
    await dialog.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await dialog.getByLabel('Recovery code').fill(recoveryCodes[2] ?? '');
    await dialog.getByRole('button', { name: 'Create Key' }).click();
    await page.getByRole('dialog', { name: 'Copy your key now' }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await securityCard().getByText('7 recovery codes left.').waitFor();
  });

  it('asks for the code when the server does, before the account’s status has arrived', async () => {
    // A slow network: the security status does not arrive while the form is filled and sent.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/user-settings/security', async (route) => {
      await held;
      // Handled already when the page went away meanwhile.
      await route.continue().catch(() => undefined);
    });
    try {
      await page.reload();
      await openSection(page, 'User Settings');
      const keys = page.getByRole('region', { name: 'API Keys' });
      await keys.getByRole('button', { name: 'Create API Key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create API Key' });
      await dialog.getByLabel('Name').fill('Slow network script');
      await dialog.getByLabel('Current Password').fill(account.password);
      expect(await dialog.getByLabel('Two-factor code').count()).toBe(0);
      await dialog.getByRole('button', { name: 'Create Key' }).click();
      // The server's refusal shows the code field, with what it said.
      await dialog.getByText('Two-factor authentication is on: enter the code').waitFor();
      await expectFocused(dialog.getByLabel('Two-factor code'));
      await dialog.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await dialog.getByLabel('Recovery code').fill(recoveryCodes[3] ?? '');
      await dialog.getByRole('button', { name: 'Create Key' }).click();
      await page.getByRole('dialog', { name: 'Copy your key now' }).waitFor();
      await page.getByRole('button', { name: 'Done' }).click();
    } finally {
      release();
      await page.unroute('**/api/user-settings/security');
    }
    await securityCard().getByText('6 recovery codes left.').waitFor();
  });
});
