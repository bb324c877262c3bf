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
  });

  it('does not know other paths', () => {
    expect(isWebRoute('/nope')).toBe(false);
    expect(isWebRoute('/help/unknown')).toBe(false);
    expect(isWebRoute('/dashboard/x')).toBe(false);
  });
});
