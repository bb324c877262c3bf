import { z } from 'zod';
import { poolTypeSchema } from './billing.ts';
import { companyField } from './fields.ts';
import { pageQueryField, paginationSchema } from './orders.ts';
import { text } from './text.ts';

// Thread raises (issue 15): a customer asks support for more threads (concurrent connections) on one
// of their plans, saying what for (support's KYC); support approves, possibly a different number, or
// declines with a message; the customer sees the status and the answer. One pending request a plan.

/** The most threads a request may ask for, and staff may grant: the back office's MAX_THREAD_LIMIT. */
export const MAX_REQUESTED_THREADS = 10_000;
export const PURPOSE_MIN_LENGTH = 20;
export const PURPOSE_MAX_LENGTH = 2000;
export const WEBSITE_MAX_LENGTH = 500;
/** A decline says why: at least this long. An approval's note is optional. */
export const DECLINE_MESSAGE_MIN_LENGTH = 10;
export const DECISION_MESSAGE_MAX_LENGTH = 2000;
/** Requests per page of the staff queue. */
export const THREAD_REQUESTS_PAGE_SIZE = 20;
/** The customer's list answers at most this many, newest first. */
export const CUSTOMER_THREAD_REQUESTS_LIMIT = 50;
/** The window of a plan's usage the staff queue shows beside a request. */
export const THREAD_REQUEST_USAGE_DAYS = 7;

export const THREAD_REQUEST_STATUSES = ['pending', 'approved', 'declined', 'cancelled'] as const;
export const threadRequestStatusSchema = z.enum(THREAD_REQUEST_STATUSES);
export type ThreadRequestStatus = z.infer<typeof threadRequestStatusSchema>;

const threads = (count: number) => count.toLocaleString('en-US');

/** What customers and staff read, worded like the spec's own rules. */
export const threadRequestMessages = {
  threadsInvalid: 'Please enter a whole number of threads.',
  threadsNotMore: (current: number) =>
    `Requested threads must be more than your current limit of ${threads(current)}.`,
  threadsTooMany: `Requested threads must be at most ${threads(MAX_REQUESTED_THREADS)}.`,
  atMaximum: `This plan already has the highest thread limit we offer (${threads(MAX_REQUESTED_THREADS)}).`,
  purposeRequired: 'Please describe what the threads are for.',
  purposeTooShort: `Purpose must be at least ${PURPOSE_MIN_LENGTH} characters.`,
  purposeTooLong: `Purpose must be at most ${threads(PURPOSE_MAX_LENGTH)} characters.`,
  websiteInvalid: 'Please enter a valid website address, such as https://example.com.',
  websiteTooLong: `Website must be at most ${WEBSITE_MAX_LENGTH} characters.`,
  alreadyPending:
    'You already have a pending thread request for this plan. Wait for our answer, or cancel it to ask again.',
  notFound: 'No such thread request',
  notPending: (status: Exclude<ThreadRequestStatus, 'pending'>) => `This request was already ${status}.`,
  grantedInvalid: 'Granted threads must be a whole number.',
  grantedNotMore: (current: number) =>
    `Granted threads must be more than the plan's current limit of ${threads(current)}; decline the request instead.`,
  grantedTooMany: `Granted threads must be at most ${threads(MAX_REQUESTED_THREADS)}.`,
  declineMessageRequired: 'Please tell the customer why the request is declined.',
  declineMessageTooShort: `The message must be at least ${DECLINE_MESSAGE_MIN_LENGTH} characters.`,
  messageTooLong: `The message must be at most ${threads(DECISION_MESSAGE_MAX_LENGTH)} characters.`,
} as const;

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const WEBSITE =
  /^https?:\/\/(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(?::\d{1,5})?(?:[/?#][^\s]*)?$/i;

/** A website as people type it ('example.com' or a full URL), with its scheme: https unless given. */
export function websiteUrl(value: string): string {
  return SCHEME.test(value) ? value : `https://${value}`;
}

/**
 * Whether a typed website is an http(s) address of a named host (`example.com`, `shop.example.co.uk`,
 * a port and a path allowed), with no credentials or spaces. A regular expression, not `URL`: the
 * contracts run where no DOM or Node types are assumed.
 */
export function isWebsite(value: string): boolean {
  return WEBSITE.test(websiteUrl(value));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The number of threads asked for: a whole number up to the most we offer. */
const requestedThreadsField = z
  .number({ error: threadRequestMessages.threadsInvalid })
  .int(threadRequestMessages.threadsInvalid)
  .min(1, threadRequestMessages.threadsInvalid)
  .max(MAX_REQUESTED_THREADS, threadRequestMessages.threadsTooMany);

const purposeField = text('Purpose', {
  isMultiline: true,
  shouldTrim: true,
  error: threadRequestMessages.purposeRequired,
})
  .min(1, threadRequestMessages.purposeRequired)
  .min(PURPOSE_MIN_LENGTH, threadRequestMessages.purposeTooShort)
  .max(PURPOSE_MAX_LENGTH, threadRequestMessages.purposeTooLong);

/** Optional website: blank means none; 'example.com' is taken as https://example.com. */
const websiteField = text('Website', { shouldTrim: true })
  .max(WEBSITE_MAX_LENGTH, threadRequestMessages.websiteTooLong)
  .optional()
  .refine((value) => !value || isWebsite(value), threadRequestMessages.websiteInvalid)
  .transform((value) => (value ? websiteUrl(value) : undefined));

/** `POST /api/thread-requests`: more threads for one of the customer's plans, and what for. */
export const createThreadRequestSchema = z.object({
  /** The plan, as `subUserId` of GET /api/subuser/plans. */
  subUserId: text('Plan id', { error: 'Plan id is required' }).max(64),
  requestedThreads: requestedThreadsField,
  purpose: purposeField,
  company: companyField,
  website: websiteField,
});
export type CreateThreadRequest = z.input<typeof createThreadRequestSchema>;

/** The dashboard's form: the request schema, and more than the plan's current limit (the server checks it too). */
export function requestMoreThreadsSchema(currentThreads: number) {
  return createThreadRequestSchema.refine((request) => request.requestedThreads > currentThreads, {
    message: threadRequestMessages.threadsNotMore(currentThreads),
    path: ['requestedThreads'],
  });
}

/** A request's id as a path names it; an unknown one (or another customer's) is a 404. */
export const threadRequestParamsSchema = z.object({
  requestId: text('Request id')
    .max(64)
    .refine((value) => UUID.test(value), { message: 'Request id must be a UUID' }),
});

/** A request as the customer sees it: what they asked, its status and support's answer. */
export const threadRequestSchema = z.object({
  id: z.string(),
  subUserId: z.string(),
  poolType: poolTypeSchema,
  status: threadRequestStatusSchema,
  /** The plan's limit when the request was made. */
  currentThreads: z.number().int(),
  requestedThreads: z.number().int(),
  /** What support approved (may differ from what was asked); null unless approved. */
  grantedThreads: z.number().int().nullable(),
  purpose: z.string(),
  company: z.string().nullable(),
  website: z.string().nullable(),
  /** Support's answer; null while pending, or when an approval came without a note. */
  decisionMessage: z.string().nullable(),
  createdAt: z.string(),
  /** When support decided, or the customer cancelled; null while pending. */
  decidedAt: z.string().nullable(),
});
export type ThreadRequest = z.infer<typeof threadRequestSchema>;

/** `GET /api/thread-requests`: the customer's requests, newest first. */
export const threadRequestListResponseSchema = z.object({ requests: z.array(threadRequestSchema) });
export type ThreadRequestListResponse = z.infer<typeof threadRequestListResponseSchema>;

// The staff side, under /api/admin.

/** `GET /api/admin/thread-requests`: every status (pending first, oldest first) or one. */
export const adminThreadRequestsQuerySchema = z.object({
  status: z
    .enum([...THREAD_REQUEST_STATUSES, ''], {
      error: 'Status must be pending, approved, declined or cancelled',
    })
    .optional()
    .transform((status) => (status ? status : undefined)),
  page: pageQueryField,
});
export type AdminThreadRequestsQuery = z.input<typeof adminThreadRequestsQuerySchema>;

export const adminThreadRequestSchema = threadRequestSchema.omit({ subUserId: true, poolType: true }).extend({
  /** The staff member who decided; null while pending or when the customer cancelled. */
  decidedByEmail: z.string().nullable(),
  customer: z.object({
    id: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    /** A staff member's plan is an admin's to change. */
    isStaff: z.boolean(),
    isDisabled: z.boolean(),
  }),
  plan: z.object({
    id: z.string(),
    poolType: poolTypeSchema,
    login: z.string(),
    label: z.string(),
    /** The plan's limit now (it may have changed since the request). */
    threadLimit: z.number().int(),
    isActive: z.boolean(),
    trafficTotalBytes: z.number().int(),
    trafficUsedBytes: z.number().int(),
  }),
  /** The plan's traffic over the last THREAD_REQUEST_USAGE_DAYS days. */
  usage: z.object({
    requests: z.number().int(),
    errors: z.number().int(),
    /** Connections refused because every thread was in use (407 THREADS_EXHAUSTED). */
    threadsExhausted: z.number().int(),
  }),
});
export type AdminThreadRequest = z.infer<typeof adminThreadRequestSchema>;

export const adminThreadRequestsResponseSchema = z.object({
  requests: z.array(adminThreadRequestSchema),
  pagination: paginationSchema,
  /** Requests by status, whatever the filter: the queue's tabs. */
  counts: z.object({
    pending: z.number().int(),
    approved: z.number().int(),
    declined: z.number().int(),
    cancelled: z.number().int(),
  }),
});
export type AdminThreadRequestsResponse = z.infer<typeof adminThreadRequestsResponseSchema>;

const optionalMessage = text('Message', { isMultiline: true, shouldTrim: true })
  .max(DECISION_MESSAGE_MAX_LENGTH, threadRequestMessages.messageTooLong)
  .optional()
  .transform((value) => (value ? value : undefined));

/** `POST /api/admin/thread-requests/:requestId/approve`: what was asked unless `grantedThreads` says. */
export const approveThreadRequestSchema = z.object({
  grantedThreads: z
    .number({ error: threadRequestMessages.grantedInvalid })
    .int(threadRequestMessages.grantedInvalid)
    .min(1, threadRequestMessages.grantedInvalid)
    .max(MAX_REQUESTED_THREADS, threadRequestMessages.grantedTooMany)
    .optional(),
  message: optionalMessage,
});
export type ApproveThreadRequest = z.input<typeof approveThreadRequestSchema>;

/** `POST /api/admin/thread-requests/:requestId/decline`: the customer is told why. */
export const declineThreadRequestSchema = z.object({
  message: text('Message', {
    isMultiline: true,
    shouldTrim: true,
    error: threadRequestMessages.declineMessageRequired,
  })
    .min(1, threadRequestMessages.declineMessageRequired)
    .min(DECLINE_MESSAGE_MIN_LENGTH, threadRequestMessages.declineMessageTooShort)
    .max(DECISION_MESSAGE_MAX_LENGTH, threadRequestMessages.messageTooLong),
});
export type DeclineThreadRequest = z.input<typeof declineThreadRequestSchema>;

export const adminThreadRequestResponseSchema = z.object({ request: adminThreadRequestSchema });
export type AdminThreadRequestResponse = z.infer<typeof adminThreadRequestResponseSchema>;
