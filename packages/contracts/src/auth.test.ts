import { describe, expect, it } from 'vitest';
import { changePasswordFormSchema, deleteAccountRequestSchema } from './account.ts';
import { loginFormSchema, signupFormSchema, signupRequestSchema } from './auth.ts';
import { contactRequestSchema } from './contact.ts';
import { messages } from './messages.ts';

const firstError = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.error?.issues[0]?.message;

const validSignup = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  password: 'long enough',
  confirmPassword: 'long enough',
};

describe('signup form', () => {
  it('accepts a complete form and omits an empty company', () => {
    const parsed = signupFormSchema.parse({ ...validSignup, company: '  ' });
    expect(parsed.company).toBeUndefined();
  });

  it("says 'Passwords do not match' on the confirmation field when they differ", () => {
    const result = signupFormSchema.safeParse({ ...validSignup, confirmPassword: 'something else' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ message: messages.passwordsDoNotMatch, path: ['confirmPassword'] }),
    ]);
  });

  it('requires first name, last name, email and password', () => {
    for (const field of ['firstName', 'lastName', 'email', 'password'] as const) {
      const result = signupFormSchema.safeParse({ ...validSignup, [field]: '' });
      expect(result.success, field).toBe(false);
    }
  });

  it('trims and lower-cases the email', () => {
    expect(signupRequestSchema.parse({ ...validSignup, email: '  Ada@Example.COM ' }).email).toBe(
      'ada@example.com',
    );
  });

  it('refuses a password under 8 characters and one over 256', () => {
    expect(firstError(signupRequestSchema.safeParse({ ...validSignup, password: 'seven77' }))).toBe(
      'Password must be at least 8 characters',
    );
    expect(signupRequestSchema.safeParse({ ...validSignup, password: 'x'.repeat(257) }).success).toBe(false);
  });

  it('keeps a company within bounds', () => {
    expect(signupRequestSchema.parse({ ...validSignup, company: ' Acme ' }).company).toBe('Acme');
    expect(signupRequestSchema.safeParse({ ...validSignup, company: 'x'.repeat(201) }).success).toBe(false);
  });
});

describe('login form', () => {
  it('requires email and password', () => {
    expect(firstError(loginFormSchema.safeParse({ email: '', password: 'x' }))).toBe('Email is required');
    expect(firstError(loginFormSchema.safeParse({ email: 'a@example.com', password: '' }))).toBe(
      'Password is required',
    );
  });

  it('does not apply the new-password length rule to sign-in', () => {
    expect(loginFormSchema.safeParse({ email: 'a@example.com', password: 'short' }).success).toBe(true);
  });
});

describe('change password form', () => {
  const valid = {
    currentPassword: 'old password',
    newPassword: 'new password',
    confirmPassword: 'new password',
  };

  it('accepts matching passwords', () => {
    expect(changePasswordFormSchema.safeParse(valid).success).toBe(true);
  });

  it('says "New passwords don\'t match." when the confirmation differs', () => {
    expect(
      firstError(changePasswordFormSchema.safeParse({ ...valid, confirmPassword: 'other password' })),
    ).toBe("New passwords don't match.");
  });

  it('needs a new password of at least 8 characters', () => {
    expect(
      firstError(
        changePasswordFormSchema.safeParse({ ...valid, newPassword: 'short', confirmPassword: 'short' }),
      ),
    ).toBe('New password must be at least 8 characters');
  });

  it('requires the current password', () => {
    expect(changePasswordFormSchema.safeParse({ ...valid, currentPassword: '' }).success).toBe(false);
  });
});

describe('delete account', () => {
  it('needs a non-empty password', () => {
    expect(deleteAccountRequestSchema.safeParse({ password: '' }).success).toBe(false);
    expect(deleteAccountRequestSchema.safeParse({ password: 'x' }).success).toBe(true);
  });
});

describe('contact form', () => {
  it('requires name, email and message, and drops an empty subject', () => {
    expect(contactRequestSchema.safeParse({ name: '', email: 'a@example.com', message: 'hi' }).success).toBe(
      false,
    );
    expect(contactRequestSchema.safeParse({ name: 'A', email: '', message: 'hi' }).success).toBe(false);
    expect(contactRequestSchema.safeParse({ name: 'A', email: 'a@example.com', message: ' ' }).success).toBe(
      false,
    );
    expect(
      contactRequestSchema.parse({ name: 'A', email: 'a@example.com', subject: '', message: 'hi' }).subject,
    ).toBeUndefined();
  });
});
