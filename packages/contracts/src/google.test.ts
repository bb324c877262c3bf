import { describe, expect, it } from 'vitest';
import {
  GOOGLE_ERROR_REASONS,
  googleCallbackQuerySchema,
  googleMessages,
  parseGoogleErrorReason,
  setPasswordFormSchema,
  setPasswordRequestSchema,
} from './google.ts';

describe('sign-in with Google contracts', () => {
  it('words every reason a Google sign-in can end with, and reads only those', () => {
    for (const reason of GOOGLE_ERROR_REASONS) {
      expect(googleMessages.errors[reason]).toMatch(/\.$/);
      expect(parseGoogleErrorReason(reason)).toBe(reason);
    }
    expect(parseGoogleErrorReason('toString')).toBeNull();
    expect(parseGoogleErrorReason(null)).toBeNull();
  });

  it('sets a password with the rules of sign-up, confirmed', () => {
    expect(setPasswordRequestSchema.safeParse({ newPassword: 'short' }).error?.issues[0]?.message).toBe(
      'New password must be at least 8 characters',
    );
    expect(setPasswordRequestSchema.safeParse({ newPassword: 'long enough', code: '' }).success).toBe(true);
    const mismatch = setPasswordFormSchema.safeParse({
      newPassword: 'long enough',
      confirmPassword: 'other one',
    });
    expect(mismatch.error?.issues[0]).toMatchObject({
      message: "New passwords don't match.",
      path: ['confirmPassword'],
    });
  });

  it('takes any callback query as optional text, refusing control characters', () => {
    expect(googleCallbackQuerySchema.safeParse({}).success).toBe(true);
    expect(googleCallbackQuerySchema.safeParse({ code: 'a', state: 'b', scope: 'openid' }).success).toBe(
      true,
    );
    expect(googleCallbackQuerySchema.safeParse({ state: 'a\u0000b' }).error?.issues[0]?.message).toBe(
      'State must not contain control characters (such as NUL)',
    );
  });
});
