import { describe, expect, it } from 'vitest';
import { HELP_ARTICLE_PATHS, isWebRoute } from './routes.ts';

describe('web routes', () => {
  it('lists the 16 help articles', () => {
    expect(new Set(HELP_ARTICLE_PATHS).size).toBe(16);
  });

  it('knows the app routes, with or without a trailing slash', () => {
    expect(isWebRoute('/')).toBe(true);
    expect(isWebRoute('/dashboard')).toBe(true);
    expect(isWebRoute('/help/targeting/target-filters/')).toBe(true);
    expect(isWebRoute('/admin')).toBe(true);
    expect(isWebRoute('/admin/customers/0b6a3e0e-4d6c-4c3f-9d0f-1a2b3c4d5e6f')).toBe(true);
  });

  it('does not know other paths', () => {
    expect(isWebRoute('/nope')).toBe(false);
    expect(isWebRoute('/help/unknown')).toBe(false);
    expect(isWebRoute('/dashboard/x')).toBe(false);
    expect(isWebRoute('/administrator')).toBe(false);
  });
});
