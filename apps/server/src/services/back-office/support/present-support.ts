import {
  type ContactCustomer,
  type ContactEntry,
  type ContactThreadResponse,
  INBOX_PREVIEW_LENGTH,
  type InboxItem,
  type StaffMember,
} from '@bytegate/contracts/admin-support';
import type { ContactEntryRow, ContactMessageRow, UserRow } from '@bytegate/db/queries';

// The inbox's presenters: what staff see of a contact message, its thread and the people on it. A
// staff member is named by id, email and name only; never a password hash or a balance.

export function presentStaffMember(row: UserRow): StaffMember {
  return { id: row.id, email: row.email, firstName: row.firstName, lastName: row.lastName };
}

/** The start of a message on one line, cut at a word near the preview's length. */
export function previewOf(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  if (line.length <= INBOX_PREVIEW_LENGTH) {
    return line;
  }
  const cut = line.slice(0, INBOX_PREVIEW_LENGTH);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > INBOX_PREVIEW_LENGTH / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

export function presentInboxItem(row: {
  message: ContactMessageRow;
  assignee: UserRow | null;
  replyCount: number;
  noteCount: number;
}): InboxItem {
  const { message } = row;
  return {
    id: message.id,
    name: message.name,
    email: message.email,
    subject: message.subject,
    preview: previewOf(message.message),
    status: message.status,
    assignee: row.assignee ? presentStaffMember(row.assignee) : null,
    replyCount: row.replyCount,
    noteCount: row.noteCount,
    createdAt: message.createdAt.toISOString(),
    updatedAt: message.updatedAt.toISOString(),
  };
}

export function presentContactEntry(row: ContactEntryRow): ContactEntry {
  return {
    id: row.id,
    kind: row.kind,
    authorEmail: row.authorEmail,
    body: row.body,
    mailMessageId: row.mailMessageId,
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentContactCustomer(
  row: UserRow,
  matchedBy: ContactCustomer['matchedBy'],
): ContactCustomer {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    role: row.role,
    status: row.disabledAt ? 'disabled' : 'active',
    matchedBy,
  };
}

export function presentContactThread(parts: {
  message: ContactMessageRow;
  assignee: UserRow | null;
  customer: ContactCustomer | null;
  entries: ContactEntryRow[];
}): ContactThreadResponse {
  const { message } = parts;
  return {
    message: {
      id: message.id,
      name: message.name,
      email: message.email,
      subject: message.subject,
      message: message.message,
      status: message.status,
      assignee: parts.assignee ? presentStaffMember(parts.assignee) : null,
      ipAddress: message.ipAddress,
      createdAt: message.createdAt.toISOString(),
      updatedAt: message.updatedAt.toISOString(),
    },
    customer: parts.customer,
    entries: parts.entries.map(presentContactEntry),
  };
}
