import { z } from 'zod';
import { MESSAGE_MAX_LENGTH, NAME_MAX_LENGTH, SUBJECT_MAX_LENGTH } from './constants.ts';
import { emailField, requiredText } from './fields.ts';
import { text } from './text.ts';

export const contactRequestSchema = z.object({
  name: requiredText('Name', NAME_MAX_LENGTH),
  email: emailField,
  subject: text('Subject', { shouldTrim: true })
    .max(SUBJECT_MAX_LENGTH, `Subject must be at most ${SUBJECT_MAX_LENGTH} characters`)
    .optional()
    .transform((subject) => (subject ? subject : undefined)),
  /** The one text that may span lines and hold tabs. */
  message: requiredText('Message', MESSAGE_MAX_LENGTH, { isMultiline: true }),
});
export type ContactRequest = z.input<typeof contactRequestSchema>;
