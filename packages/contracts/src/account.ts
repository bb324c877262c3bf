import { z } from 'zod';
import { userSchema } from './auth.ts';
import { COMPANY_MAX_LENGTH } from './constants.ts';
import {
  companyField,
  emailField,
  firstNameField,
  lastNameField,
  newPasswordField,
  passwordInput,
} from './fields.ts';
import { messages } from './messages.ts';
import { text } from './text.ts';
import { optionalTwoFactorCodeField } from './two-factor.ts';

export const changePasswordRequestSchema = z.object({
  currentPassword: passwordInput('Current password'),
  newPassword: newPasswordField(messages.newPasswordTooShort),
  /** Required while two-factor authentication is on (403 TWO_FACTOR_REQUIRED without it). */
  code: optionalTwoFactorCodeField,
});
export type ChangePasswordRequest = z.input<typeof changePasswordRequestSchema>;

/** The change-password form: current, new and confirm required; confirm must match. */
export const changePasswordFormSchema = changePasswordRequestSchema
  .extend({
    confirmPassword: text('Password', { isMultiline: true }).min(1, 'Please confirm the new password'),
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: messages.newPasswordsDontMatch,
    path: ['confirmPassword'],
  });
export type ChangePasswordForm = z.input<typeof changePasswordFormSchema>;

export const deleteAccountRequestSchema = z.object({
  password: passwordInput(),
  /** Required while two-factor authentication is on. */
  code: optionalTwoFactorCodeField,
});
export type DeleteAccountRequest = z.input<typeof deleteAccountRequestSchema>;

/**
 * The profile form (SPEC section 5): first, last name and email required, company optional. A new email
 * also takes the current password: it becomes the account's once its mailed link is followed.
 */
export const profileFormSchema = z.object({
  firstName: firstNameField,
  lastName: lastNameField,
  email: emailField,
  company: text('Company', { shouldTrim: true })
    .max(COMPANY_MAX_LENGTH, `Company must be at most ${COMPANY_MAX_LENGTH} characters`)
    .optional(),
  currentPassword: z.string().optional(),
  code: z.string().optional(),
});
export type ProfileForm = z.input<typeof profileFormSchema>;

/** `PUT /api/user-settings/profile`: names and company saved at once; an empty company clears it. */
export const updateProfileRequestSchema = z.object({
  firstName: firstNameField,
  lastName: lastNameField,
  email: emailField,
  company: companyField,
  /** Needed only when `email` differs from the account's (the change is then mailed for confirmation). */
  currentPassword: passwordInput('Current password').optional(),
  /** With a change of email while two-factor is on: an app or recovery code. */
  code: optionalTwoFactorCodeField,
});
export type UpdateProfileRequest = z.input<typeof updateProfileRequestSchema>;

/** The profile: the user, and the address a change of email waits on (its link not followed yet). */
export const profileResponseSchema = z.object({
  user: userSchema,
  pendingEmail: z.string().nullable(),
});
export type ProfileResponse = z.infer<typeof profileResponseSchema>;

export const balanceResponseSchema = z.object({
  balance: z.number(),
  balanceCents: z.number().int(),
});
export type BalanceResponse = z.infer<typeof balanceResponseSchema>;
