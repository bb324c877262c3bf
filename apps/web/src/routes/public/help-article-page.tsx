import { ArticlePager } from '../../features/help/article-pager.tsx';
import { type HelpEntry, loadArticle } from '../../features/help/articles.ts';
import { Breadcrumbs } from '../../features/help/breadcrumbs.tsx';
import { MarkdownDocument } from '../../features/help/markdown-document.tsx';
import { pageHeadFor } from '../../seo/page-head.ts';

/** One guide: breadcrumbs, the article, and a sticky 'On this page' list of its sections. */
export function HelpArticlePage({ entry }: { entry: HelpEntry }) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:py-16">
      <Breadcrumbs trail={pageHeadFor(entry.path)?.breadcrumbs ?? []} />
      <MarkdownDocument
        title={entry.title}
        lead={entry.description}
        documentKey={entry.path}
        load={() => loadArticle(entry.path)}
        outlineDepth={3}
        noun="guide"
        after={<ArticlePager entry={entry} />}
      />
    </div>
  );
}
