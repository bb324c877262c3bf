import { z } from 'zod';

/** Response schema of every error, declared on routes so the OpenAPI document shows it. */
export const errorResponseSchema = z.object({
  error: z.string(),
  code: z.string(),
  /** The setting a refusal is about, where there is one (Proxy Settings shows the message beside it). */
  field: z.string().optional(),
  /** Every field a refusal is about, each with its message (a form shows each beside its field). */
  fields: z.record(z.string(), z.string()).optional(),
});
