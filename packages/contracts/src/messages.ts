/** User-visible messages, worded exactly as SPEC sections 5 and 8 give them. */
export const messages = {
  passwordsDoNotMatch: 'Passwords do not match',
  newPasswordsDontMatch: "New passwords don't match.",
  loginSuccess: 'Login successful',
  loginFailed: 'Failed to login',
  signupSuccess: 'Account created successfully',
  signupFailed: 'Failed to create account',
  recaptchaLoadFailed: 'The security challenge failed to load. Please refresh the page and try again.',
  passwordUpdated: 'Password updated successfully!',
  passwordUpdateFailed: 'Failed to update password. Please try again.',
  deleteAccountFailed: 'Failed to delete account. Please try again.',
  profileUpdated: 'Profile updated successfully!',
  contactSent: 'Message Sent!',
  contactFailed: 'Failed to send',
  contactRequired: 'Please fill in all required fields.',
  // Server-side wording, where the spec leaves it to us.
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists',
  notSignedIn: 'Please sign in to continue',
  sessionExpired: 'Your session has expired. Please sign in again.',
  currentPasswordWrong: 'Current password is incorrect',
  passwordWrong: 'Password is incorrect',
  passwordTooShort: 'Password must be at least 8 characters',
  newPasswordTooShort: 'New password must be at least 8 characters',
  newPasswordSameAsCurrent: 'New password must be different from the current password',
  accountDisabled: 'This account has been disabled. Please contact support.',
  staffOnly: 'This area is for Bytegate staff only',
  adminOnly: 'Only an admin may do this',
  csrfFailed: 'This request could not be verified. Please reload the page and try again.',
  recaptchaRequired: 'Please complete the security check and try again.',
  recaptchaFailed: 'The security check failed. Please try again.',
  recaptchaUnavailable: 'The security check is unavailable right now. Please try again shortly.',
  databaseUnavailable: 'The service is briefly unavailable. Please try again in a few seconds.',
  serverBusy: 'The server is busy right now. Please try again in a few seconds.',
  invalidBody: 'The request body is not valid JSON',
  bodyTooDeep: 'The request body is nested too deeply',
  bodyTooLarge: 'The request body is too large',
  notFound: 'Not found',
  internalError: 'Something went wrong on our side. Please try again.',
} as const;

/**
 * A text field holding NUL or another control character (a tab or line break where only a message may
 * have one): named by its label, worded once for every field.
 */
export const controlCharactersMessage = (label: string) =>
  `${label} must not contain control characters (such as NUL)`;

/** A wait as a person reads it, rounded up: '40 seconds', '1 minute', '14 minutes'. */
export function waitText(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  if (whole < 60) {
    return `${whole} second${whole === 1 ? '' : 's'}`;
  }
  const minutes = Math.ceil(whole / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** Refusals that say how long to wait: the real time left, never a guess. */
export const waitMessages = {
  tooManyRequests: (seconds: number) => `Too many requests. Please try again in ${waitText(seconds)}.`,
  tooManyLoginAttempts: (seconds: number) =>
    `Too many failed sign-in attempts. Please try again in ${waitText(seconds)}.`,
  accountLocked: (seconds: number) =>
    `Too many failed sign-in attempts on this account from other browsers: sign-ins from browsers it does not know are paused for ${waitText(seconds)}. If it is your account, we can email you a one-time sign-in link.`,
  tooManyPasswordAttempts: (seconds: number) =>
    `Too many password attempts. Please try again in ${waitText(seconds)}.`,
} as const;
