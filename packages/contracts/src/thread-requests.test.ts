import { describe, expect, it } from 'vitest';
import { MAX_THREAD_LIMIT } from './admin.ts';
import {
  createThreadRequestSchema,
  isWebsite,
  MAX_REQUESTED_THREADS,
  requestMoreThreadsSchema,
  websiteUrl,
} from './thread-requests.ts';

const valid = {
  subUserId: '6f1c2f5e-2d2a-4a8e-9a43-6b1f0c1f9e11',
  requestedThreads: 800,
  purpose: 'Price monitoring of 40 retail sites',
};

describe('thread requests', () => {
  it('asks for at most what staff may set', () => {
    expect(MAX_REQUESTED_THREADS).toBe(MAX_THREAD_LIMIT);
  });

  it('takes websites as people type them, with a scheme added, and refuses what is not one', () => {
    for (const typed of ['example.com', 'https://shop.example.co.uk/about?x=1', 'http://example.com:8080']) {
      expect({ typed, ok: isWebsite(typed) }).toEqual({ typed, ok: true });
    }
    for (const typed of [
      'example',
      'http://localhost',
      'ftp://example.com',
      'https://user:pw@example.com',
      'https://exa mple.com',
      'javascript:alert(1)//x.com',
      'https://-bad-.com',
    ]) {
      expect({ typed, ok: isWebsite(typed) }).toEqual({ typed, ok: false });
    }
    expect(websiteUrl('example.com')).toBe('https://example.com');
    expect(websiteUrl('http://example.com')).toBe('http://example.com');
    const parsed = createThreadRequestSchema.parse({ ...valid, website: ' example.com ', company: '  ' });
    expect(parsed).toMatchObject({ website: 'https://example.com', company: undefined });
  });

  it("refuses, in the dashboard's form, no more than the plan's current limit", () => {
    const form = requestMoreThreadsSchema(500);
    const refused = form.safeParse({ ...valid, requestedThreads: 500 });
    expect(refused.error?.issues).toEqual([
      expect.objectContaining({
        path: ['requestedThreads'],
        message: 'Requested threads must be more than your current limit of 500.',
      }),
    ]);
    expect(form.safeParse(valid).success).toBe(true);
  });
});
