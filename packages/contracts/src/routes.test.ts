import { describe, expect, it } from 'vitest';
import { HELP_ARTICLE_PATHS, isWebRoute } from './routes.ts';

describe('web routes', () => {
  it('lists the spec’s 16 help articles first, then our own, each once', () => {
    expect(new Set(HELP_ARTICLE_PATHS).size).toBe(HELP_ARTICLE_PATHS.length);
    expect(HELP_ARTICLE_PATHS.slice(0, 16)).toEqual([
      '/help/getting-started',
      '/help/proxy-settings',
      '/help/proxy-types',
      '/help/benefits-best-practices',
      '/help/troubleshooting',
      '/help/tutorials/simpleproxy',
      '/help/tutorials/axios',
      '/help/blocked-websites',
      '/help/port-access',
      '/help/connection-types',
      '/help/protocols',
      '/help/connection-hosts',
      '/help/targeting',
      '/help/targeting/default-targeting',
      '/help/targeting/target-filters',
      '/help/threads',
    ]);
  });

  it('knows the app routes, with or without a trailing slash', () => {
    expect(isWebRoute('/')).toBe(true);
    expect(isWebRoute('/dashboard')).toBe(true);
    expect(isWebRoute('/help/targeting/target-filters/')).toBe(true);
    expect(isWebRoute('/admin')).toBe(true);
    expect(isWebRoute('/forgot-password')).toBe(true);
    expect(isWebRoute('/reset-password')).toBe(true);
    expect(isWebRoute('/verify-email')).toBe(true);
    expect(isWebRoute('/admin/customers/0b6a3e0e-4d6c-4c3f-9d0f-1a2b3c4d5e6f')).toBe(true);
  });

  it('does not know other paths', () => {
    expect(isWebRoute('/nope')).toBe(false);
    expect(isWebRoute('/help/unknown')).toBe(false);
    expect(isWebRoute('/dashboard/x')).toBe(false);
    expect(isWebRoute('/administrator')).toBe(false);
  });
});
