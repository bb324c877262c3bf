import { z } from 'zod';
import { controlCharactersMessage } from './messages.ts';

// Every text field the API takes is built here, so that none lets a control character through:
// PostgreSQL cannot store NUL in text (it was a 500), and no name, address, code or label holds one.

/** Below space: NUL and the other C0 control characters; DEL is the one above. */
const FIRST_PRINTABLE = 0x20;
const DELETE = 0x7f;
/** Tab, line feed and carriage return: what multi-line text may hold. */
const LINE_BREAKS_AND_TAB = new Set([0x09, 0x0a, 0x0d]);

export interface TextOptions {
  /** Lets tabs and line breaks (\t, \n, \r) through: a contact message, or a password as typed. */
  isMultiline?: boolean;
  /** Trims white space (line breaks included) at both ends before the check, so it is dropped, not refused. */
  shouldTrim?: boolean;
  /** The message when the value is missing or not a string (as `z.string({ error })`). */
  error?: string;
}

/** Whether a text holds a control character its field refuses (see `text`). */
export function hasControlCharacters(value: string, options: Pick<TextOptions, 'isMultiline'> = {}): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (
      (code < FIRST_PRINTABLE || code === DELETE) &&
      !(options.isMultiline && LINE_BREAKS_AND_TAB.has(code))
    ) {
      return true;
    }
  }
  return false;
}

/**
 * A text field: a string that holds no NUL, no other C0 control character and no DEL (a multi-line
 * one may hold tabs and line breaks), else `'<label> must not contain control characters (such as NUL)'`.
 * Chain `.min()`, `.max()` and the rest as on `z.string()`.
 */
export function text(label: string, options: TextOptions = {}) {
  const { isMultiline = false, shouldTrim = false, error } = options;
  const string = z.string(error === undefined ? undefined : { error });
  return (shouldTrim ? string.trim() : string).refine(
    (value) => !hasControlCharacters(value, { isMultiline }),
    {
      message: controlCharactersMessage(label),
    },
  );
}
