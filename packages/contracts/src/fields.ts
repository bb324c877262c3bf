import { z } from 'zod';
import {
  COMPANY_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  RECAPTCHA_TOKEN_MAX_LENGTH,
} from './constants.ts';
import { messages } from './messages.ts';
import { text } from './text.ts';

/** Building blocks shared by the request schemas; each bounds its size and refuses control characters. */

export const requiredText = (label: string, max: number, options: { isMultiline?: boolean } = {}) =>
  text(label, { error: `${label} is required`, shouldTrim: true, ...options })
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

export const emailField = text('Email', { error: 'Email is required', shouldTrim: true })
  .min(1, 'Email is required')
  .max(EMAIL_MAX_LENGTH, `Email must be at most ${EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email('Please enter a valid email address'))
  .transform((email) => email.toLowerCase());

// Passwords are hashed, never stored as text: tabs and line breaks stay allowed (refusing them could
// lock out someone who chose one); NUL and the other control characters are refused.

/** A password as typed at sign-in: any non-empty string within the bound. */
export const passwordInput = (label = 'Password') =>
  text(label, { error: `${label} is required`, isMultiline: true })
    .min(1, `${label} is required`)
    .max(PASSWORD_MAX_LENGTH, `${label} must be at most ${PASSWORD_MAX_LENGTH} characters`);

/** A password being chosen: at least PASSWORD_MIN_LENGTH characters. */
export const newPasswordField = (tooShort: string = messages.passwordTooShort) =>
  text('Password', { error: 'Password is required', isMultiline: true })
    .min(PASSWORD_MIN_LENGTH, tooShort)
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const firstNameField = requiredText('First name', NAME_MAX_LENGTH);
export const lastNameField = requiredText('Last name', NAME_MAX_LENGTH);

/** Optional company: an empty or blank value means none. */
export const companyField = text('Company', { shouldTrim: true })
  .max(COMPANY_MAX_LENGTH, `Company must be at most ${COMPANY_MAX_LENGTH} characters`)
  .optional()
  .transform((company) => (company ? company : undefined));

export const recaptchaTokenField = text('Security check token').max(RECAPTCHA_TOKEN_MAX_LENGTH).optional();
