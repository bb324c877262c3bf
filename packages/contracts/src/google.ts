import { z } from 'zod';
import { newPasswordField } from './fields.ts';
import { messages } from './messages.ts';
import { text } from './text.ts';
import { optionalTwoFactorCodeField, type SecurityStatusResponse } from './two-factor.ts';

// Sign-in with Google (OpenID Connect) and what an account created with it needs: linking Google to an
// account from User Settings, and setting a password later. The server sends a browser back to the web
// app with a reason code in the URL fragment (never the query, so no server log or Referer holds it);
// the web app shows the reason's message from here.

/** Where the browser goes to sign in (or sign up) with Google: the server answers a redirect to Google. */
export const GOOGLE_SIGN_IN_PATH = '/api/auth/google/start';

/** The Google account linked to a signed-in account, as User Settings shows it (`GET /api/user-settings/security`). */
export type GoogleLink = NonNullable<SecurityStatusResponse['google']>;

/** `POST /api/user-settings/google/connect`: where to send the browser to link a Google account. */
export const googleConnectResponseSchema = z.object({ authorizationUrl: z.string() });
export type GoogleConnectResponse = z.infer<typeof googleConnectResponseSchema>;

/**
 * `GET /api/auth/google/callback`: what Google sends back (RFC 6749 section 4.1.2 and RFC 9207). Every
 * field is optional here: a missing one is a failed sign-in told on the login page, not a JSON error.
 */
const callbackField = (label: string) => text(label).max(4096).optional();
export const googleCallbackQuerySchema = z.object({
  code: callbackField('Code'),
  state: callbackField('State'),
  error: callbackField('Error'),
  error_description: callbackField('Error description'),
  iss: callbackField('Issuer'),
});

/** Why a Google sign-in (or link) did not finish: sent back in the fragment as `google-error=<reason>`. */
export const GOOGLE_ERROR_REASONS = [
  'not_configured',
  'denied',
  'expired',
  'unavailable',
  'failed',
  'email_not_verified',
  'account_exists',
  'disabled',
  'linked_elsewhere',
  'other_google_linked',
] as const;
export type GoogleErrorReason = (typeof GOOGLE_ERROR_REASONS)[number];

export const googleMessages = {
  signInButton: 'Sign in with Google',
  signUpButton: 'Sign up with Google',
  connected: 'Google account connected',
  disconnected: 'Google account disconnected',
  notConfigured: 'Sign-in with Google is not available on this site.',
  setPasswordFirst: 'Set a password first: without one, Google is the only way to sign in to this account.',
  setPasswordBeforeDeleting: 'Set a password first: deleting the account asks for it.',
  setPasswordBeforeApiKeys: 'Set a password first: creating an API key asks for it.',
  setPasswordBeforeEmailChange: 'Set a password first: changing your email asks for it.',
  notLinked: 'No Google account is connected.',
  noPasswordToChange: 'This account has no password yet: set one instead.',
  alreadyHasPassword: 'This account already has a password. Change it with your current password.',
  passwordSet: 'Password set. You can now sign in with your email and password too.',
  passwordRequired: 'Password is required',
  /** Why each `google-error` reason ended the sign-in, as the login page (or User Settings) says it. */
  errors: {
    not_configured: 'Sign-in with Google is not available on this site.',
    denied: 'Google sign-in was cancelled.',
    expired: 'This Google sign-in expired or was already used. Please try again.',
    unavailable: 'Google could not be reached. Please try again in a moment.',
    failed: 'Google sign-in failed. Please try again.',
    email_not_verified:
      'Your Google account’s email address is not verified. Verify it with Google, or sign up with your email and a password.',
    account_exists:
      'An account with this email already exists. Sign in with your password, then connect Google in User Settings → Security.',
    disabled: messages.accountDisabled,
    linked_elsewhere: 'This Google account is already connected to another Bytegate account.',
    other_google_linked:
      'Another Google account is connected to your account. Disconnect it first to connect this one.',
  } satisfies Record<GoogleErrorReason, string>,
} as const;

/** A reason read from a URL, or null for anything that is not one. */
export function parseGoogleErrorReason(value: string | null | undefined): GoogleErrorReason | null {
  return GOOGLE_ERROR_REASONS.find((reason) => reason === value) ?? null;
}

/** `POST /api/user-settings/password`: the first password of an account created with Google. */
export const setPasswordRequestSchema = z.object({
  newPassword: newPasswordField(messages.newPasswordTooShort),
  /** Required while two-factor authentication is on. */
  code: optionalTwoFactorCodeField,
});
export type SetPasswordRequest = z.input<typeof setPasswordRequestSchema>;

/** The set-a-password form: new and confirm, which must match (the same rules as a password change). */
export const setPasswordFormSchema = setPasswordRequestSchema
  .extend({
    confirmPassword: text('Password', { isMultiline: true }).min(1, 'Please confirm the new password'),
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: messages.newPasswordsDontMatch,
    path: ['confirmPassword'],
  });
export type SetPasswordForm = z.input<typeof setPasswordFormSchema>;
