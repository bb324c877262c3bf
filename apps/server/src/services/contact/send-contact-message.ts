import { createContactMessage } from '@bytegate/db/queries';
import type { RequestOrigin, ServiceContext } from '../context.ts';

export interface SendContactMessageProps {
  name: string;
  email: string;
  subject?: string | undefined;
  message: string;
  /** Set when a signed-in user writes, so support sees whose account it is. */
  userId: string | null;
  origin: RequestOrigin;
}

/** Stores a message from the contact form for the support team. */
export async function sendContactMessage(ctx: ServiceContext, props: SendContactMessageProps): Promise<void> {
  await createContactMessage(ctx.db, {
    name: props.name,
    email: props.email,
    subject: props.subject ?? null,
    message: props.message,
    userId: props.userId,
    ipAddress: props.origin.ipAddress,
  });
}
