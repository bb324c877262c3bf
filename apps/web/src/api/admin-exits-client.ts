import type {
  AddExitRequest,
  ExitActionRequest,
  ExitResponse,
  ExitsQuery,
  ExitsResponse,
  ImportExitsRequest,
  ImportExitsResponse,
} from '@bytegate/contracts/admin-exits';
import { defineApiSection } from './api-client.ts';

// The console's exit inventory calls (issue 15): the list with health, add, import, and the actions on
// one exit. Kept in the console's chunk like admin-client.ts.

/** The exits page's filters as the console sends them; one left empty does not narrow the list. */
export type ExitsFilter = Omit<ExitsQuery, 'page' | 'q'> & { q: string; page: number };

/** What can be done to one exit, each with a reason: the path's last segment. */
export type ExitAction = 'disable' | 'enable' | 'restore' | 'remove';

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') {
      search.set(key, String(value));
    }
  }
  return search.toString();
}

/** Staff read the inventory; the changes are an admin's (support is answered 403). */
export const adminExitsApi = defineApiSection((request) => ({
  list: ({ pool, country, status, q, page }: ExitsFilter) =>
    request<ExitsResponse>('GET', `/admin/exits?${query({ pool, country, status, q, page })}`),
  add: (body: AddExitRequest) => request<ExitResponse>('POST', '/admin/exits', { body }),
  /** All or nothing: a refusal carries `problems`, line by line (ApiError.body). */
  import: (body: ImportExitsRequest) => request<ImportExitsResponse>('POST', '/admin/exits/import', { body }),
  act: (exitId: string, action: ExitAction, body: ExitActionRequest) =>
    request<ExitResponse | { removed: true }>(
      'POST',
      `/admin/exits/${encodeURIComponent(exitId)}/${action}`,
      { body },
    ),
}));
