import { z } from 'zod';
import { COMPANY_MAX_LENGTH } from './constants.ts';
import { emailField, firstNameField, lastNameField, newPasswordField, passwordInput } from './fields.ts';
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

/** Profile form (a local simulation per SPEC section 7): first, last name and email required. */
export const profileFormSchema = z.object({
  firstName: firstNameField,
  lastName: lastNameField,
  email: emailField,
  company: text('Company', { shouldTrim: true }).max(COMPANY_MAX_LENGTH).optional(),
});
export type ProfileForm = z.input<typeof profileFormSchema>;

export const balanceResponseSchema = z.object({
  balance: z.number(),
  balanceCents: z.number().int(),
});
export type BalanceResponse = z.infer<typeof balanceResponseSchema>;
