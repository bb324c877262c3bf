import { z } from 'zod';
import { type AuditAction, customerStatusSchema, userRoleSchema } from './admin.ts';
import { pageQueryField, paginationSchema } from './orders.ts';
import { text } from './text.ts';

// The back office's support inbox and Outbox (issue 15): what /api/admin/inbox/* and /api/admin/outbox/*
// take and answer. A contact message is a thread: the customer's message, then staff's internal notes
// and the replies mailed from the console, oldest first.

/** Where a contact message stands: new (nobody looked), open (being worked on), answered, closed. */
export const CONTACT_STATUSES = ['new', 'open', 'answered', 'closed'] as const;
export const contactStatusSchema = z.enum(CONTACT_STATUSES, {
  error: `Status must be one of ${CONTACT_STATUSES.join(', ')}`,
});
export type ContactStatus = z.infer<typeof contactStatusSchema>;

/** Whose messages the inbox lists: the signed-in staff member's, anyone's, or nobody's yet. */
export const INBOX_ASSIGNEE_FILTERS = ['anyone', 'me', 'unassigned'] as const;
export const inboxAssigneeFilterSchema = z.enum(INBOX_ASSIGNEE_FILTERS, {
  error: `Assignee must be one of ${INBOX_ASSIGNEE_FILTERS.join(', ')}`,
});
export type InboxAssigneeFilter = z.infer<typeof inboxAssigneeFilterSchema>;

/** `note`: internal, never sent; `reply`: mailed to the sender. */
export const contactEntryKindSchema = z.enum(['note', 'reply']);
export type ContactEntryKind = z.infer<typeof contactEntryKindSchema>;

/** What the audit log records of the inbox (in contracts/admin.ts's AUDIT_ACTIONS with the rest). */
export type SupportAuditAction = Extract<AuditAction, `contact.${string}`>;

/** Messages per page of GET /api/admin/inbox. */
export const INBOX_PAGE_SIZE = 25;
/** Characters of a message the inbox list shows. */
export const INBOX_PREVIEW_LENGTH = 160;
export const INBOX_SEARCH_MAX_LENGTH = 200;
export const REPLY_MAX_LENGTH = 10_000;
export const NOTE_MAX_LENGTH = 5_000;
/** Outbox messages per page of GET /api/admin/outbox. */
export const OUTBOX_PAGE_SIZE = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidField = (label: string) =>
  text(label)
    .max(64)
    .refine((value) => UUID.test(value), { message: `${label} must be a UUID` });

/** A contact message's id (uuid) as a path names it; an unknown one is a 404. */
export const contactMessageParamsSchema = z.object({ messageId: uuidField('Message id') });

/** `GET /api/admin/inbox`: one status (or every one), whose, a search text, the page. */
export const inboxQuerySchema = z.object({
  status: contactStatusSchema.optional(),
  assignee: inboxAssigneeFilterSchema.default('anyone'),
  q: text('Search', { shouldTrim: true })
    .max(INBOX_SEARCH_MAX_LENGTH, `Search must be at most ${INBOX_SEARCH_MAX_LENGTH} characters`)
    .default(''),
  page: pageQueryField,
});
export type InboxQuery = z.input<typeof inboxQuerySchema>;

/** A staff member as the inbox names them (assignee, author). */
export const staffMemberSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

export const inboxItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  subject: z.string().nullable(),
  /** The start of the message, on one line. */
  preview: z.string(),
  status: contactStatusSchema,
  assignee: staffMemberSchema.nullable(),
  replyCount: z.number().int(),
  noteCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type InboxItem = z.infer<typeof inboxItemSchema>;

/** Messages per status under the request's other filters (assignee, search): the tabs' counts. */
export const inboxCountsSchema = z.object({
  all: z.number().int(),
  new: z.number().int(),
  open: z.number().int(),
  answered: z.number().int(),
  closed: z.number().int(),
});
export type InboxCounts = z.infer<typeof inboxCountsSchema>;

export const inboxResponseSchema = z.object({
  messages: z.array(inboxItemSchema),
  counts: inboxCountsSchema,
  pagination: paginationSchema,
});
export type InboxResponse = z.infer<typeof inboxResponseSchema>;

/** One note or reply under a message. */
export const contactEntrySchema = z.object({
  id: z.string(),
  kind: contactEntryKindSchema,
  /** As it was when written (like the audit log's actor). */
  authorEmail: z.string(),
  body: z.string(),
  /** The Message-ID of a reply's mail; null for a note. */
  mailMessageId: z.string().nullable(),
  createdAt: z.string(),
});
export type ContactEntry = z.infer<typeof contactEntrySchema>;

/**
 * The customer account a message is from: the signed-in sender's (`account`), or the account whose
 * email the sender gave (`email`).
 */
export const contactCustomerSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: userRoleSchema,
  status: customerStatusSchema,
  matchedBy: z.enum(['account', 'email']),
});
export type ContactCustomer = z.infer<typeof contactCustomerSchema>;

/** `GET /api/admin/inbox/:messageId`, and the answer of every action on the thread. */
export const contactThreadResponseSchema = z.object({
  message: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    subject: z.string().nullable(),
    message: z.string(),
    status: contactStatusSchema,
    assignee: staffMemberSchema.nullable(),
    /** The address the form was sent from. */
    ipAddress: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
  customer: contactCustomerSchema.nullable(),
  /** Notes and replies, oldest first. */
  entries: z.array(contactEntrySchema),
});
export type ContactThreadResponse = z.infer<typeof contactThreadResponseSchema>;

/** `POST /api/admin/inbox/:messageId/status`. */
export const setContactStatusRequestSchema = z.object({ status: contactStatusSchema });
export type SetContactStatusRequest = z.input<typeof setContactStatusRequestSchema>;

/** `POST /api/admin/inbox/:messageId/assign`: a staff member's id, or null to unassign. */
export const assignContactRequestSchema = z.object({
  assigneeUserId: uuidField('Assignee').nullable(),
});
export type AssignContactRequest = z.input<typeof assignContactRequestSchema>;

const entryBody = (label: string, max: number) =>
  text(label, { isMultiline: true, shouldTrim: true, error: `${label} is required` })
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max.toLocaleString('en-US')} characters`);

/** `POST /api/admin/inbox/:messageId/notes`: internal, never sent. */
export const contactNoteRequestSchema = z.object({ body: entryBody('Note', NOTE_MAX_LENGTH) });
export type ContactNoteRequest = z.input<typeof contactNoteRequestSchema>;

/** `POST /api/admin/inbox/:messageId/replies`: mailed to the sender, the message quoted below. */
export const contactReplyRequestSchema = z.object({ body: entryBody('Reply', REPLY_MAX_LENGTH) });
export type ContactReplyRequest = z.input<typeof contactReplyRequestSchema>;

/** `GET /api/admin/inbox/assignees`: the staff a message may be assigned to. */
export const assigneesResponseSchema = z.object({
  assignees: z.array(staffMemberSchema.extend({ isMe: z.boolean() })),
});
export type AssigneesResponse = z.infer<typeof assigneesResponseSchema>;

/** How this server sends mail: through SMTP_URL, or into the outbox folder (DATA_DIR/outbox). */
export const mailTransportSchema = z.enum(['smtp', 'outbox']);
export type MailTransport = z.infer<typeof mailTransportSchema>;

/** An outbox file's name without `.eml`: its UTC time to the millisecond and a random tail. */
export const OUTBOX_ID_PATTERN = /^\d{8}T\d{9}Z-[0-9a-f]{12}$/;
const outboxIdField = text('Outbox id')
  .max(64)
  .refine((value) => OUTBOX_ID_PATTERN.test(value), { message: 'Outbox id is not a message of the outbox' });

/** `GET /api/admin/outbox?before=`: newest first; `before` (an id) pages on to older messages. */
export const outboxQuerySchema = z.object({ before: outboxIdField.optional() });
export type OutboxQuery = z.input<typeof outboxQuerySchema>;

export const outboxParamsSchema = z.object({ outboxId: outboxIdField });

/**
 * What the console may show of a message's body. A one-time link (password reset, email verification,
 * change of email) signs in or proves an address, so only its addressee may read it:
 * - `none`: the mail carries no such link; shown whole.
 * - `redacted`: its template marked one-time links; each is replaced by `OUTBOX_REDACTED_SECRET`.
 * - `withheld`: the file does not say (written before the outbox marked secrets, or not by the server);
 *   its body is not shown at all.
 */
export const outboxRedactionSchema = z.enum(['none', 'redacted', 'withheld']);
export type OutboxRedaction = z.infer<typeof outboxRedactionSchema>;

/** What a one-time link reads as in the console's Outbox (subject, text and HTML alike). */
export const OUTBOX_REDACTED_SECRET = '[one-time link redacted]';

export const outboxItemSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  to: z.string(),
  subject: z.string(),
  redaction: outboxRedactionSchema,
});
export type OutboxItem = z.infer<typeof outboxItemSchema>;

export const outboxResponseSchema = z.object({
  transport: mailTransportSchema,
  messages: z.array(outboxItemSchema),
  /** The id to ask `before` for the next, older page; null on the last page. */
  nextBefore: z.string().nullable(),
});
export type OutboxResponse = z.infer<typeof outboxResponseSchema>;

/**
 * `GET /api/admin/outbox/:outboxId`: the headers people read, the text, and the HTML as sent, one-time
 * links redacted (see `redaction`). Every read is written to the audit log (`outbox.read`).
 */
export const outboxMessageResponseSchema = outboxItemSchema.extend({
  from: z.string(),
  replyTo: z.string().nullable(),
  /** Null when there is none, the file is over the reading bound, or the body is `withheld`. */
  text: z.string().nullable(),
  /** The sender's markup: show it only in a sandboxed frame (no scripts, no same origin). Null as `text`. */
  html: z.string().nullable(),
  sizeBytes: z.number().int(),
  /** Over the reading bound (1 MiB): the headers are read, the body is not. */
  isTruncated: z.boolean(),
});
export type OutboxMessageResponse = z.infer<typeof outboxMessageResponseSchema>;
