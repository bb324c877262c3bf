import type { MailLog } from '../mailer.ts';

/** A logger that keeps its lines, to check what the mailer logs (and that it never logs a password). */
export function createRecordingLog(): MailLog & { lines: { level: string; args: unknown[] }[] } {
  const lines: { level: string; args: unknown[] }[] = [];
  return {
    lines,
    info: (...args: unknown[]) => {
      lines.push({ level: 'info', args });
    },
    error: (...args: unknown[]) => {
      lines.push({ level: 'error', args });
    },
  };
}
