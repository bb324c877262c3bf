import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HELP_ARTICLE_PATHS, isWebRoute } from '@bytegate/contracts/routes';
import { describe, expect, it } from 'vitest';
import { readFrontMatter, renderMarkdown, slugify } from './markdown-plugin.ts';

const helpDir = fileURLToPath(new URL('../src/content/help', import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? markdownFiles(join(dir, entry.name))
      : entry.name.endsWith('.md')
        ? [join(dir, entry.name)]
        : [],
  );
}

const articles = markdownFiles(helpDir).map((file) => ({
  route: `/help/${relative(helpDir, file).replace(/\.md$/, '')}`,
  ...renderMarkdown(readFileSync(file, 'utf8'), file),
}));

describe('help articles', () => {
  it('are each a route of the Help Center, with a title, a description and sections', () => {
    expect(articles.length).toBeGreaterThan(0);
    for (const article of articles) {
      expect(HELP_ARTICLE_PATHS, article.route).toContain(article.route);
      expect(article.title.length, article.route).toBeGreaterThan(2);
      expect(article.description.length, article.route).toBeGreaterThan(20);
      expect(article.headings.length, article.route).toBeGreaterThan(1);
      const ids = article.headings.map((heading) => heading.id);
      expect(new Set(ids).size, article.route).toBe(ids.length);
    }
  });

  it('link only to pages that exist, as the legal documents do', () => {
    const legalDir = fileURLToPath(new URL('../src/content/legal', import.meta.url));
    const legal = markdownFiles(legalDir).map((file) => ({
      route: relative(legalDir, file),
      ...renderMarkdown(readFileSync(file, 'utf8'), file),
    }));
    expect(legal.map((document) => document.route).sort()).toEqual(['privacy.md', 'terms.md']);
    for (const article of [...articles, ...legal]) {
      for (const [, href] of article.html.matchAll(/href="([^"]+)"/g)) {
        if (href?.startsWith('/')) {
          expect(isWebRoute(href.split('#')[0] ?? ''), `${article.route} links to ${href}`).toBe(true);
        }
      }
    }
  });
});

describe('the Markdown build step', () => {
  it('reads front matter and gives headings stable anchors', () => {
    expect(readFrontMatter('---\ntitle: "A: B"\ndescription: x\n---\n# Body')).toEqual({
      data: { title: 'A: B', description: 'x' },
      body: '# Body',
    });
    expect(slugify('Sticky <code>ports</code> &amp; more!')).toBe('sticky-ports-more');
    const rendered = renderMarkdown('---\ntitle: T\ndescription: D\n---\n## Same\n\n## Same\n\n### Deeper\n');
    expect(rendered.headings).toEqual([
      { id: 'same', text: 'Same', level: 2 },
      { id: 'same-2', text: 'Same', level: 2 },
      { id: 'deeper', text: 'Deeper', level: 3 },
    ]);
    expect(rendered.html).toContain('<h2 id="same-2">Same</h2>');
  });

  it('refuses an article without a title or description', () => {
    expect(() => renderMarkdown('# No front matter', 'x.md')).toThrow('x.md: front matter needs a title');
  });
});
