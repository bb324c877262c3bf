import { z } from 'zod';
import { MESSAGE_MAX_LENGTH, NAME_MAX_LENGTH, SUBJECT_MAX_LENGTH } from './constants.ts';
import { emailField, requiredText } from './fields.ts';

export const contactRequestSchema = z.object({
  name: requiredText('Name', NAME_MAX_LENGTH),
  email: emailField,
  subject: z
    .string()
    .trim()
    .max(SUBJECT_MAX_LENGTH, `Subject must be at most ${SUBJECT_MAX_LENGTH} characters`)
    .optional()
    .transform((subject) => (subject ? subject : undefined)),
  message: requiredText('Message', MESSAGE_MAX_LENGTH),
});
export type ContactRequest = z.input<typeof contactRequestSchema>;
