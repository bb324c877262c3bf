import type { ActivityPage } from '@bytegate/contracts/activity';
import { defineApiSection } from './api-client.ts';

// The account's activity feed (issue 19): a section of its own, which only the dashboard loads.

export const activityApi = defineApiSection((request) => ({
  /** A page of the feed, newest first; `cursor` is the previous page's `nextCursor`. */
  page: (cursor: string | null) =>
    request<ActivityPage>('GET', `/account/activity${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`),
}));
