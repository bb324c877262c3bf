import { z } from 'zod';
import { sessionModeField } from './auth.ts';
import { emailField, newPasswordField, recaptchaTokenField } from './fields.ts';
import { messages, waitText } from './messages.ts';
import { text } from './text.ts';

// Mailed one-time links (issue 18): a password reset, and the proof of an email address (at sign-up,
// or for a change of email). Each link carries a random token (32 bytes, base64url) that the server
// keeps only as its SHA-256; it works once, and only for a while.

/** How long a link works. */
export const PASSWORD_RESET_LINK_TTL_MS = 30 * 60 * 1000;
export const EMAIL_VERIFICATION_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const EMAIL_CHANGE_LINK_TTL_MS = 24 * 60 * 60 * 1000;
/** A one-time sign-in link, mailed to the owner of an account locked by failed sign-ins elsewhere. */
export const SIGN_IN_LINK_TTL_MS = 15 * 60 * 1000;

/** A token's length as we make it: 32 bytes in base64url. */
export const LINK_TOKEN_LENGTH = 43;
const LINK_TOKEN_MAX_LENGTH = 128;

export const accountLinkMessages = {
  resetRequested:
    'If an account exists for that email, we have sent it a link to reset the password. The link works for 30 minutes.',
  passwordReset: 'Your password has been reset. Sign in with your new password.',
  resetLinkInvalid:
    'This password reset link is invalid, has expired or was already used. Please ask for a new one.',
  verificationLinkInvalid:
    'This verification link is invalid, has expired or was already used. Please ask for a new one.',
  linkMissing: 'This link is incomplete: open it exactly as it is in the email.',
  emailVerified: 'Your email address is verified.',
  emailChanged: (email: string) => `Your email address is now ${email}.`,
  emailNotVerified:
    'Please verify your email address before topping up or buying traffic: follow the link we emailed you, or send a new one from the dashboard.',
  verificationSent: (email: string) => `We sent a new verification link to ${email}.`,
  alreadyVerified: 'Your email address is already verified.',
  emailChangeNeedsPassword: 'Please enter your current password to change your email.',
  emailChangeSent: (email: string) =>
    `We sent a confirmation link to ${email}. Your email changes once you follow it.`,
  emailChangeCancelled: 'The email change was cancelled.',
  mailNotSent: (email: string) =>
    `We could not send the email to ${email} right now. Please try again in a few minutes.`,
  tooManyResetRequests: (seconds: number) =>
    `Too many password reset requests. Please try again in ${waitText(seconds)}.`,
  tooManyVerificationEmails: (seconds: number) =>
    `Too many verification emails. Please try again in ${waitText(seconds)}.`,
  tooManyLinkAttempts: (seconds: number) =>
    `Too many attempts with emailed links. Please try again in ${waitText(seconds)}.`,
  signInLinkRequested:
    'If this account is locked, we have emailed its owner a one-time sign-in link. It works for 15 minutes, once.',
  signInLinkInvalid:
    'This sign-in link is invalid, has expired or was already used. Please ask for a new one from the sign-in page.',
  tooManySignInLinks: (seconds: number) =>
    `Too many sign-in links asked for. Please try again in ${waitText(seconds)}.`,
} as const;

/** A link's token as the page sends it; one that is not ours is simply not found (INVALID_LINK). */
export const linkTokenField = text('Link token', { shouldTrim: true, error: accountLinkMessages.linkMissing })
  .min(1, accountLinkMessages.linkMissing)
  .max(LINK_TOKEN_MAX_LENGTH, accountLinkMessages.linkMissing);

export const forgotPasswordRequestSchema = z.object({
  email: emailField,
  recaptchaToken: recaptchaTokenField,
});
export type ForgotPasswordRequest = z.input<typeof forgotPasswordRequestSchema>;

export const forgotPasswordFormSchema = forgotPasswordRequestSchema.omit({ recaptchaToken: true });
export type ForgotPasswordForm = z.input<typeof forgotPasswordFormSchema>;

/** The same answer whatever the email: it never says whether an account exists. */
export const forgotPasswordResponseSchema = z.object({ success: z.literal(true), message: z.string() });
export type ForgotPasswordResponse = z.infer<typeof forgotPasswordResponseSchema>;

export const resetPasswordRequestSchema = z.object({
  token: linkTokenField,
  password: newPasswordField(),
});
export type ResetPasswordRequest = z.input<typeof resetPasswordRequestSchema>;

/** The new-password form: the sign-up rules, and a confirmation that must match. */
export const resetPasswordFormSchema = z
  .object({
    password: newPasswordField(),
    confirmPassword: text('Password', { isMultiline: true }),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: messages.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type ResetPasswordForm = z.input<typeof resetPasswordFormSchema>;

/** `email`: the account whose password was set (whoever holds the link reads that mailbox). */
export const resetPasswordResponseSchema = z.object({ success: z.literal(true), email: z.string() });
export type ResetPasswordResponse = z.infer<typeof resetPasswordResponseSchema>;

export const verifyEmailRequestSchema = z.object({ token: linkTokenField });
export type VerifyEmailRequest = z.input<typeof verifyEmailRequestSchema>;

/** The account's address now; `isEmailChanged` when the link was for a change of email. */
export const verifyEmailResponseSchema = z.object({ email: z.string(), isEmailChanged: z.boolean() });
export type VerifyEmailResponse = z.infer<typeof verifyEmailResponseSchema>;

/** "Email me a sign-in link" on the sign-in page of a locked account. */
export const signInLinkRequestSchema = z.object({
  email: emailField,
  recaptchaToken: recaptchaTokenField,
});
export type SignInLinkRequest = z.input<typeof signInLinkRequestSchema>;

/** Following a sign-in link: its token, and (the web app) a cookie session. */
export const signInWithLinkRequestSchema = z.object({
  token: linkTokenField,
  session: sessionModeField,
});
export type SignInWithLinkRequest = z.input<typeof signInWithLinkRequestSchema>;

export const resendVerificationResponseSchema = z.object({ success: z.literal(true), email: z.string() });
export type ResendVerificationResponse = z.infer<typeof resendVerificationResponseSchema>;
