import { z } from 'zod';
import { userRoleSchema } from './admin.ts';
import {
  companyField,
  emailField,
  firstNameField,
  lastNameField,
  newPasswordField,
  passwordInput,
  recaptchaTokenField,
} from './fields.ts';
import { messages } from './messages.ts';
import { text } from './text.ts';
import { paymentProviderModeSchema } from './topup.ts';
import { twoFactorCodeField } from './two-factor.ts';

/** The user as the client keeps it (SPEC section 3); balance in dollars, computed from integer cents. */
export const userSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  company: z.string().nullable(),
  balance: z.number(),
  /** Whether `email` was proven by a mailed link; while it is not, top-ups and purchases may be refused. */
  emailVerified: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

/**
 * How a sign-in is carried: `token` (the default, for programmatic clients) answers a bearer token;
 * `cookie` (the web app) sets an httpOnly session cookie instead and answers the CSRF token that
 * state-changing requests on that cookie must send as `X-CSRF-Token`. The token never reaches scripts.
 */
export const sessionModeField = z.enum(['token', 'cookie']).optional();
export type SessionMode = z.infer<typeof sessionModeField>;

export const signupRequestSchema = z.object({
  firstName: firstNameField,
  lastName: lastNameField,
  email: emailField,
  password: newPasswordField(),
  company: companyField,
  recaptchaToken: recaptchaTokenField,
  session: sessionModeField,
});
export type SignupRequest = z.input<typeof signupRequestSchema>;

/**
 * The signup form: the request plus a confirmation that must match
 * ('Passwords do not match', and nothing is sent).
 */
export const signupFormSchema = signupRequestSchema
  .omit({ recaptchaToken: true, session: true })
  .extend({ confirmPassword: text('Password', { isMultiline: true }) })
  .refine((form) => form.password === form.confirmPassword, {
    message: messages.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type SignupForm = z.input<typeof signupFormSchema>;

export const loginRequestSchema = z.object({
  email: emailField,
  password: passwordInput(),
  recaptchaToken: recaptchaTokenField,
  session: sessionModeField,
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

/** `POST /api/auth/login/two-factor`: a sign-in's challenge and its code (from the app, or a recovery code). */
export const loginTwoFactorRequestSchema = z.object({
  challengeToken: text('Challenge token').min(1, 'Challenge token is required').max(128),
  code: twoFactorCodeField,
  /** As at `POST /api/auth/login`; left out, the sign-in goes on as it began. */
  session: sessionModeField,
});
export type LoginTwoFactorRequest = z.input<typeof loginTwoFactorRequestSchema>;

export const loginFormSchema = loginRequestSchema.omit({ recaptchaToken: true, session: true });
export type LoginForm = z.input<typeof loginFormSchema>;

/** A bearer-token sign-in (`session` left out or `token`). */
export const authResponseSchema = z.object({
  token: z.string(),
  user: userSchema,
});
export type AuthResponse = z.infer<typeof authResponseSchema>;

/** A cookie sign-in (`session: 'cookie'`): the session is in the httpOnly cookie, never in the body. */
export const cookieAuthResponseSchema = z.object({
  user: userSchema,
  /** Sent back as `X-CSRF-Token` with every POST, PUT, PATCH and DELETE on this session. */
  csrfToken: z.string(),
});
export type CookieAuthResponse = z.infer<typeof cookieAuthResponseSchema>;

export const meResponseSchema = z.object({
  user: userSchema,
  /** The user's role: a staff role (support, admin) opens the back office at /admin. */
  role: userRoleSchema,
  /** On a cookie session: the CSRF token its state-changing requests send (a reloaded page asks here). */
  csrfToken: z.string().optional(),
});
export type MeResponse = z.infer<typeof meResponseSchema>;

export const okResponseSchema = z.object({ success: z.literal(true) });
export type OkResponse = z.infer<typeof okResponseSchema>;

/** Public settings the web app needs before sign-in. */
export const publicConfigSchema = z.object({
  recaptchaSiteKey: z.string().nullable(),
  /** Sign-in with Google is set up (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET): the login and sign-up pages offer it. */
  googleSignIn: z.boolean(),
  /** True while a payment provider runs its built-in sandbox: the UI shows a test-mode banner. */
  paymentsSandbox: z.boolean(),
  /** How each payment provider runs; an unavailable one has its payment button disabled. */
  paymentProviders: z.object({ cryptomus: paymentProviderModeSchema, bitcart: paymentProviderModeSchema }),
  /** EMAIL_VERIFICATION: an account must follow its mailed link before it may top up or buy traffic. */
  emailVerificationRequired: z.boolean(),
  /** Where customers point their tools: the gateway's host name, address and ports. */
  gateway: z.object({
    host: z.string(),
    ip: z.string().nullable(),
    httpPort: z.number().int(),
    socksPort: z.number().int(),
    /** Each port of this range is one sticky session slot (HTTP or SOCKS5 on the same port). */
    stickyPorts: z.object({ first: z.number().int(), last: z.number().int() }),
  }),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
