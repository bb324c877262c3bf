import { HELP_ARTICLE_PATHS } from '@bytegate/contracts/routes';
import { describe, expect, it } from 'vitest';
import { renderHead } from './head-tags.ts';
import { NOT_FOUND_HEAD, PUBLIC_PAGE_PATHS, pageHeadFor, structuredData } from './page-head.ts';
import { fillTemplate } from './template.ts';

describe('page heads', () => {
  it('gives every public page its own head, the 404 head to unknown paths, and none to the dashboard', () => {
    expect(PUBLIC_PAGE_PATHS).toHaveLength(12 + HELP_ARTICLE_PATHS.length);
    expect(pageHeadFor('/help/')).toBe(pageHeadFor('/help'));
    expect(pageHeadFor('/help/targeting')?.type).toBe('article');
    expect(pageHeadFor('/nope')).toBe(NOT_FOUND_HEAD);
    expect(pageHeadFor('/help/nope')).toBe(NOT_FOUND_HEAD);
    expect(pageHeadFor('/dashboard')).toBeNull();
    expect(pageHeadFor('/admin')).toBeNull();
    expect(pageHeadFor('/admin/customers/0b6f')).toBeNull();
    expect(pageHeadFor('/administrator')).toBe(NOT_FOUND_HEAD);
    expect(PUBLIC_PAGE_PATHS.some((path) => path.startsWith('/admin'))).toBe(false);
    expect(pageHeadFor('/login')?.isListed).toBe(false);
  });

  it('keeps the pages of mailed links out of search engines and the sitemap', () => {
    for (const path of ['/forgot-password', '/reset-password', '/verify-email', '/sign-in-link']) {
      const head = pageHeadFor(path);
      expect(head?.canonicalPath, path).toBeNull();
      expect(head?.isListed, path).toBe(false);
      expect(PUBLIC_PAGE_PATHS).toContain(path);
      expect(renderHead(head ?? NOT_FOUND_HEAD, 'https://example.com'), path).toContain(
        '<meta name="robots" content="noindex"',
      );
    }
  });

  it('describes a guide as a TechArticle inside a breadcrumb trail', () => {
    const head = pageHeadFor('/help/threads');
    expect(head).not.toBeNull();
    const [article, trail] = structuredData(head ?? NOT_FOUND_HEAD, 'https://example.com');
    expect(article).toMatchObject({ '@type': 'TechArticle', url: 'https://example.com/help/threads' });
    expect(trail).toMatchObject({
      '@type': 'BreadcrumbList',
      itemListElement: [
        { position: 1, item: 'https://example.com/' },
        { position: 2, item: 'https://example.com/help' },
        { position: 3, item: 'https://example.com/help/threads' },
      ],
    });
    expect(structuredData(NOT_FOUND_HEAD, 'https://example.com')).toEqual([]);
  });

  it('escapes what it writes into the document', () => {
    const html = renderHead(
      { ...NOT_FOUND_HEAD, title: 'Q&A "quoted"', description: '</script><b>', canonicalPath: '/x' },
      'https://example.com',
    );
    expect(html).toContain('<title>Q&amp;A &quot;quoted&quot; | Bytegate</title>');
    expect(html).toContain('content="&lt;/script&gt;&lt;b&gt;"');
    expect(html).not.toContain('</script><b>');
  });

  it('puts the head and the page into the template, replacing its defaults', () => {
    const template =
      '<head><title>Default</title>\n  <meta name="description" content="default" data-page-head />\n</head><body><div id="root"></div></body>';
    const page = fillTemplate(template, '<title>Mine</title>', '<main>hello $& $1</main>');
    expect(page).toBe(
      '<head><title>Mine</title>\n</head><body><div id="root"><main>hello $& $1</main></div></body>',
    );
    expect(() => fillTemplate('<head></head>', '', '')).toThrow(/<title>/);
  });
});
