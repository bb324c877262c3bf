import { z } from 'zod';
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

/** The user as the client keeps it (SPEC section 3); balance in dollars, computed from integer cents. */
export const userSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  company: z.string().nullable(),
  balance: z.number(),
});
export type User = z.infer<typeof userSchema>;

export const signupRequestSchema = z.object({
  firstName: firstNameField,
  lastName: lastNameField,
  email: emailField,
  password: newPasswordField(),
  company: companyField,
  recaptchaToken: recaptchaTokenField,
});
export type SignupRequest = z.input<typeof signupRequestSchema>;

/**
 * The signup form: the request plus a confirmation that must match
 * ('Passwords do not match', and nothing is sent).
 */
export const signupFormSchema = signupRequestSchema
  .omit({ recaptchaToken: true })
  .extend({ confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, {
    message: messages.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type SignupForm = z.input<typeof signupFormSchema>;

export const loginRequestSchema = z.object({
  email: emailField,
  password: passwordInput(),
  recaptchaToken: recaptchaTokenField,
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const loginFormSchema = loginRequestSchema.omit({ recaptchaToken: true });
export type LoginForm = z.input<typeof loginFormSchema>;

export const authResponseSchema = z.object({
  token: z.string(),
  user: userSchema,
});
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const meResponseSchema = z.object({ user: userSchema });
export type MeResponse = z.infer<typeof meResponseSchema>;

export const okResponseSchema = z.object({ success: z.literal(true) });
export type OkResponse = z.infer<typeof okResponseSchema>;

/** Public settings the web app needs before sign-in. */
export const publicConfigSchema = z.object({
  recaptchaSiteKey: z.string().nullable(),
  /** True while a payment provider runs its built-in sandbox: the UI marks top-ups as test mode. */
  paymentsSandbox: z.boolean(),
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
