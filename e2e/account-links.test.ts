// Mailed links in the browser (issue 18), with the server started with SMTP_URL pointing at an SMTP
// server this test runs (smtp-server on 127.0.0.1), so EMAIL_VERIFICATION's `auto` requires
// verification: "Forgot your password?" to a new password (the old one refused, the other browser
// signed out); a new account held back from paying by the banner until its mailed link is followed; the
// profile saved into the header at once, and a new email taken once its link is followed. axe checks
// every new page and state at 1280 and 375 px. An account locked by 100 failed sign-ins from 100
// addresses lets its owner in through a mailed sign-in link.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Agent, fetch as fetchFrom } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ReceivedMail,
  type SmtpSink,
  startSmtpSink,
} from '../apps/server/src/mail/testing/smtp-sink.ts';
import { axeViolations, type Violation } from './support/axe.ts';
import { saveScreenshot } from './support/browser.ts';
import { startServerAndBrowser } from './support/fixture.ts';
import {
  logInThroughForm,
  newAccount,
  openSection,
  signUpThroughForm,
  type TestAccount,
  topUp,
} from './support/journeys.ts';
import type { RunningServer } from './support/server.ts';

let sink: SmtpSink;
let server: RunningServer;
let browser: Browser;
let stop: () => Promise<void>;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  sink = await startSmtpSink();
  ({ server, browser, stop } = await startServerAndBrowser({
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    MAIL_FROM: 'Bytegate <no-reply@bytegate.test>',
  }));
});
afterAll(async () => {
  for (const context of contexts) {
    await context.close();
  }
  await stop?.();
  await sink?.close();
});

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 800 };

async function newPage(viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  return context.newPage();
}

/** Waits for the `nth` message (from 1) the SMTP server took for `to`. */
async function mailFor(to: string, nth = 1): Promise<ReceivedMail> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = sink.received.filter((mail) => mail.rcptTo.includes(to))[nth - 1];
    if (found) {
      return found;
    }
    if (Date.now() > deadline) {
      throw new Error(`no mail #${nth} for ${to}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The link to `page` in a message's text, as a person would click it. */
function linkIn(mail: ReceivedMail, page: string): string {
  const match = new RegExp(`https?://\\S+${page}\\?token=[A-Za-z0-9_-]{43}`).exec(mail.parsed.text ?? '');
  if (!match) {
    throw new Error(`no ${page} link in "${mail.parsed.subject}"`);
  }
  return match[0];
}

/** axe at a desktop and a phone width on the page as it is now, with a screenshot of each. */
async function checkAccessibility(page: Page, name: string): Promise<void> {
  const found: Record<string, Violation[]> = {};
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.waitForLoadState('networkidle');
    const violations = await axeViolations(page);
    if (violations.length > 0) {
      found[`${name} at ${viewport.width}`] = violations;
    }
    await saveScreenshot(page, `account-links-${name}-${viewport.width}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${viewport.width} overflows`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize(DESKTOP);
  expect(found).toEqual({});
}

const banner = (page: Page) => page.getByRole('region', { name: 'Please verify your email address' });

describe('forgot password', () => {
  let account: TestAccount;
  let signedIn: Page;

  beforeAll(async () => {
    account = newAccount();
    signedIn = await newPage();
    await signUpThroughForm(signedIn, server.url, account);
  });

  it('mails a link from the sign-in page, sets a new password with it and refuses the old one', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(`${server.url}/forgot-password`);
    await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
    expect(await page.title()).toBe('Reset Your Password | Bytegate');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    await checkAccessibility(page, 'forgot-password');

    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByText('Email is required').waitFor();
    await page.getByLabel('Email', { exact: true }).fill(account.email.toUpperCase());
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page
      .getByText('If an account exists for that email, we have sent it a link to reset the password.')
      .waitFor();
    await checkAccessibility(page, 'forgot-password-sent');

    const mail = await mailFor(account.email, 2);
    expect(mail.parsed.subject).toBe('Reset your Bytegate password');
    const link = linkIn(mail, '/reset-password');
    expect(link.startsWith(`${server.url}/reset-password?token=`)).toBe(true);
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
    await checkAccessibility(page, 'reset-password');

    const newPassword = 'a brand new password';
    await page.getByLabel(/^New Password/).fill(newPassword);
    await page.getByLabel('Confirm New Password').fill('something else');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await page.getByLabel('Confirm New Password').fill(newPassword);
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page.getByText('Your password has been reset. Sign in with your new password.').waitFor();
    await checkAccessibility(page, 'reset-password-done');

    // The link is used up.
    await page.goto(link);
    await page.getByLabel(/^New Password/).fill('yet another password');
    await page.getByLabel('Confirm New Password').fill('yet another password');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page.getByText('This password reset link is invalid, has expired or was already used.').waitFor();
    await checkAccessibility(page, 'reset-password-used-link');
    await page.getByRole('link', { name: 'Ask for a new link' }).click();
    await page.waitForURL(`${server.url}/forgot-password`);

    await logInThroughForm(page, server.url, account.email, account.password);
    await page.getByText('Invalid email or password').first().waitFor();
    expect(page.url()).toBe(`${server.url}/login`);
    await logInThroughForm(page, server.url, account.email, newPassword);
    await page.waitForURL(`${server.url}/dashboard`);
  });

  it('signed out the browser that was signed in before', async () => {
    await signedIn.reload();
    await signedIn.waitForURL(`${server.url}/login`);
  });
});

describe('email verification', () => {
  let account: TestAccount;
  let page: Page;

  beforeAll(async () => {
    account = newAccount();
    page = await newPage();
    await signUpThroughForm(page, server.url, account);
  });

  it('shows the banner on every section and explains why buying and topping up wait', async () => {
    await banner(page).waitFor();
    await banner(page).getByText(account.email).waitFor();
    await checkAccessibility(page, 'dashboard-unverified');
    for (const section of ['Orders', 'Proxy Setup', 'User Settings']) {
      await openSection(page, section);
      await banner(page).waitFor();
    }

    await openSection(page, 'Plans & Pricing');
    await page.getByRole('button', { name: 'Choose Datacenter' }).click();
    const purchase = page.getByRole('button', { name: /^Purchase/ });
    await page.getByText('Verify your email address to buy traffic').waitFor();
    expect(await purchase.isDisabled()).toBe(true);
    const describedBy = await purchase.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toContain(
      `Verify your email address to buy traffic: follow the link we sent to ${account.email}.`,
    );
    await checkAccessibility(page, 'plans-unverified');

    await openSection(page, 'Top-up');
    await page.getByRole('button', { name: '$10', exact: true }).click();
    await page.getByText('Verify your email address to top up your balance').waitFor();
    expect(await page.getByRole('button', { name: 'Pay with Cryptomus' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Pay with Bitcart' }).isDisabled()).toBe(true);

    // Whatever the page shows, the server refuses too, and says why.
    const refused = await page.evaluate(async () => {
      const me = await (await fetch('/api/auth/me')).json();
      const answer = await fetch('/api/topup/cryptomus/create-invoice', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': me.csrfToken },
        body: JSON.stringify({ amount: 10 }),
      });
      return { status: answer.status, body: await answer.json() };
    });
    expect(refused).toEqual({
      status: 403,
      body: {
        code: 'EMAIL_NOT_VERIFIED',
        error:
          'Please verify your email address before topping up or buying traffic: follow the link we emailed you, or send a new one from the dashboard.',
      },
    });
  });

  it('sends a new link from the banner; the first one then no longer works', async () => {
    const first = linkIn(await mailFor(account.email, 1), '/verify-email');
    await banner(page).getByRole('button', { name: 'Resend verification email' }).click();
    await page.getByText(`We sent a new verification link to ${account.email}.`).waitFor();
    const second = linkIn(await mailFor(account.email, 2), '/verify-email');
    expect(second).not.toBe(first);

    await page.goto(first);
    await page
      .getByText(
        'This verification link is invalid, has expired or was already used. Please ask for a new one.',
      )
      .waitFor();
    await checkAccessibility(page, 'verify-email-used-link');

    await page.goto(second);
    await page
      .getByText('Your email address is verified. You can now top up your balance and buy traffic.')
      .waitFor();
    expect(await page.title()).toBe('Verify Your Email | Bytegate');
    await checkAccessibility(page, 'verify-email-done');
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await page.waitForURL(`${server.url}/dashboard`);
    await page.getByText(`Welcome back, ${account.firstName}`).first().waitFor();
    expect(await banner(page).count()).toBe(0);
  });

  it('lets the verified account top up and buy', async () => {
    await topUp(page, 'Cryptomus', '10');
    await openSection(page, 'Plans & Pricing');
    await page.getByRole('button', { name: 'Choose Datacenter' }).click();
    expect(await page.getByText('Verify your email address').count()).toBe(0);
    await page.getByRole('button', { name: 'Purchase $4.95' }).click();
    await page.getByText('Datacenter plan purchased: 5 GB added').waitFor();
  });
});

describe('the profile', () => {
  let account: TestAccount;
  let page: Page;

  beforeAll(async () => {
    account = newAccount();
    page = await newPage();
    await signUpThroughForm(page, server.url, account);
    await page.goto(linkIn(await mailFor(account.email, 1), '/verify-email'));
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await openSection(page, 'User Settings');
  });

  const profileCard = () => page.getByRole('region', { name: 'Profile' });
  const header = () => page.getByRole('banner');

  it('saves a new name, shown in the header at once', async () => {
    await header().getByText(`${account.firstName} ${account.lastName}`).waitFor();
    await profileCard().getByText('Verified', { exact: true }).waitFor();
    await profileCard().getByLabel('First Name').fill('Grace');
    await profileCard()
      .getByLabel(/^Company/)
      .fill('Navy');
    await profileCard().getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Profile updated successfully!').waitFor();
    await header().getByText(`Grace ${account.lastName}`).waitFor();
    // Saved on the server: a reload shows it too.
    await page.reload();
    await openSection(page, 'User Settings');
    await header().getByText(`Grace ${account.lastName}`).waitFor();
    await expect
      .poll(() =>
        profileCard()
          .getByLabel(/^Company/)
          .inputValue(),
      )
      .toBe('Navy');
  });

  it('changes the email only once the link mailed to the new address is followed', async () => {
    const newEmail = `moved.${Date.now()}@example.org`;
    await profileCard().getByLabel('Email', { exact: true }).fill(newEmail);
    await profileCard().getByRole('button', { name: 'Save Changes' }).click();
    await profileCard().getByText('Please enter your current password to change your email.').waitFor();
    await profileCard()
      .getByLabel(/^Current Password/)
      .fill(account.password);
    await profileCard().getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Profile updated successfully!').first().waitFor();
    await profileCard().getByText(`Your email changes to ${newEmail} once you follow the link`).waitFor();
    await header().getByText(account.email).waitFor();
    // The form shows the account as it is: its email, and no password waiting in a field.
    await expect
      .poll(() => profileCard().getByLabel('Email', { exact: true }).inputValue())
      .toBe(account.email);
    expect(
      await profileCard()
        .getByLabel(/^Current Password/)
        .count(),
    ).toBe(0);
    await checkAccessibility(page, 'profile-pending-email');

    const notice = await mailFor(account.email, 2);
    expect(notice.parsed.subject).toBe('Your Bytegate email is about to change');
    await page.goto(linkIn(await mailFor(newEmail, 1), '/verify-email'));
    await page.getByText(`Your email address is now ${newEmail}.`).waitFor();
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await header().getByText(newEmail).waitFor();
    await openSection(page, 'User Settings');
    expect(await profileCard().getByText('Your email changes to').count()).toBe(0);
    await expect.poll(() => profileCard().getByLabel('Email', { exact: true }).inputValue()).toBe(newEmail);
  });
});

describe('a locked account (audit finding 17)', () => {
  const agents: Agent[] = [];
  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.close()));
  });

  it('tells the owner the sign-in is paused, mails a sign-in link on request and signs in with it', async () => {
    const account = newAccount();
    const setup = await newPage();
    await signUpThroughForm(setup, server.url, account);
    const email = account.email.toLowerCase();
    // 100 wrong passwords, each from its own address: the account pauses browsers it does not know.
    for (let i = 1; i <= 100; i++) {
      const agent = new Agent({ localAddress: `127.0.1.${i}` });
      agents.push(agent);
      const response = await fetchFrom(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: `guess ${i}` }),
        dispatcher: agent,
      });
      expect(response.status).toBe(401);
    }

    // The owner, in a new browser, with the right password: told what happened and what to do.
    const page = await newPage();
    await logInThroughForm(page, server.url, account.email, account.password);
    await page
      .getByText('Too many failed sign-in attempts on this account from other browsers', { exact: false })
      .waitFor();
    await checkAccessibility(page, 'login-locked');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByText('we have emailed its owner a one-time sign-in link', { exact: false }).waitFor();
    const mail = await mailFor(email, 2);
    expect(mail.parsed.subject).toBe('Sign in to your Bytegate account');
    expect(mail.parsed.text).toContain('with a wrong password 100 times from 100 different addresses');

    // The link opens a page that signs in only when asked (a mail scanner opening it spends nothing).
    await page.goto(linkIn(mail, '/sign-in-link'));
    await page.getByRole('heading', { name: 'Sign in with your link' }).waitFor();
    await checkAccessibility(page, 'sign-in-link');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${server.url}/dashboard`);

    // This browser is now the account's: its password sign-in is no longer paused.
    await page.context().clearCookies({ name: 'bytegate_session' });
    await logInThroughForm(page, server.url, account.email, account.password);
    await page.waitForURL(`${server.url}/dashboard`);
  }, 240_000);
});
