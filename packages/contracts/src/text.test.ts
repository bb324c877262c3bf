import { describe, expect, it } from 'vitest';
import { signupRequestSchema } from './auth.ts';
import { contactRequestSchema } from './contact.ts';
import { controlCharactersMessage } from './messages.ts';
import { hasControlCharacters, text } from './text.ts';
import { createTopupRequestSchema } from './topup.ts';

const firstError = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.error?.issues[0]?.message;

/** Every C0 control character and DEL. */
const CONTROLS = [...Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)), '\u007f'];

describe('hasControlCharacters', () => {
  it('finds NUL, every other C0 control character and DEL anywhere in single-line text', () => {
    for (const control of CONTROLS) {
      expect(hasControlCharacters(`a${control}b`), JSON.stringify(control)).toBe(true);
    }
    expect(hasControlCharacters('\u0000')).toBe(true);
    expect(hasControlCharacters('trailing\u001f')).toBe(true);
  });

  it('lets tabs and line breaks through multi-line text, and nothing else', () => {
    for (const control of CONTROLS) {
      const isAllowed = control === '\t' || control === '\n' || control === '\r';
      expect(hasControlCharacters(`a${control}b`, { isMultiline: true }), JSON.stringify(control)).toBe(
        !isAllowed,
      );
    }
  });

  it('passes ordinary text, accents, emoji and the C1 range untouched', () => {
    expect(hasControlCharacters('Zoë Ångström, 東京 🚀 ~!@#$%^&*()')).toBe(false);
    expect(hasControlCharacters('')).toBe(false);
    expect(hasControlCharacters('\u0080\u00a0')).toBe(false);
  });
});

describe('text', () => {
  it('refuses a control character with the one message, naming the field', () => {
    const result = text('First name').safeParse('A\u0000da');
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        code: 'custom',
        message: 'First name must not contain control characters (such as NUL)',
      }),
    ]);
    expect(controlCharactersMessage('Subject')).toBe(
      'Subject must not contain control characters (such as NUL)',
    );
  });

  it('trims before it checks when asked, so a stray line break at an end is dropped, not refused', () => {
    expect(text('Name', { shouldTrim: true }).parse(' Ada\n')).toBe('Ada');
    expect(text('Name').safeParse(' Ada\n').success).toBe(false);
    expect(text('Name', { shouldTrim: true }).safeParse('A\nda').success).toBe(false);
  });

  it('keeps the missing-value message and chains like z.string()', () => {
    const schema = text('Label', { error: 'Label is required' }).max(3, 'Too long');
    expect(firstError(schema.safeParse(undefined))).toBe('Label is required');
    expect(firstError(schema.safeParse('abcd'))).toBe('Too long');
    expect(schema.parse('abc')).toBe('abc');
  });
});

describe('the contracts refuse control characters in their text fields', () => {
  const signup = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    password: 'long enough',
  };

  it('keeps the existing messages first where they apply', () => {
    expect(firstError(signupRequestSchema.safeParse({ ...signup, firstName: '  ' }))).toBe(
      'First name is required',
    );
    expect(firstError(signupRequestSchema.safeParse({ ...signup, email: 'nope' }))).toBe(
      'Please enter a valid email address',
    );
    expect(firstError(signupRequestSchema.safeParse({ ...signup, password: 'seven77' }))).toBe(
      'Password must be at least 8 characters',
    );
  });

  it('names the field a NUL is in, before the email or length rules', () => {
    expect(firstError(signupRequestSchema.safeParse({ ...signup, email: 'ada\u0000@example.com' }))).toBe(
      'Email must not contain control characters (such as NUL)',
    );
    expect(firstError(signupRequestSchema.safeParse({ ...signup, company: 'Ac\u0000me' }))).toBe(
      'Company must not contain control characters (such as NUL)',
    );
    expect(firstError(createTopupRequestSchema.safeParse({ amount: '10', paymentMethod: 'BTC\u0000' }))).toBe(
      'Payment method must not contain control characters (such as NUL)',
    );
  });

  it('lets a password hold a tab (it is only hashed) but not a NUL', () => {
    expect(signupRequestSchema.safeParse({ ...signup, password: 'long\tenough' }).success).toBe(true);
    expect(firstError(signupRequestSchema.safeParse({ ...signup, password: 'long\u0000enough' }))).toBe(
      'Password must not contain control characters (such as NUL)',
    );
  });

  it('lets a contact message span lines, but not its subject', () => {
    const contact = { name: 'Ada', email: 'ada@example.com', message: 'Hello,\r\n\tthanks.\n' };
    expect(contactRequestSchema.parse(contact).message).toBe('Hello,\r\n\tthanks.');
    expect(firstError(contactRequestSchema.safeParse({ ...contact, message: 'Hi\u0000' }))).toBe(
      'Message must not contain control characters (such as NUL)',
    );
    expect(firstError(contactRequestSchema.safeParse({ ...contact, subject: 'Re:\tHi' }))).toBe(
      'Subject must not contain control characters (such as NUL)',
    );
  });
});
