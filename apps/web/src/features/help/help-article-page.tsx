import { useCallback } from 'react';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { type HelpEntry, loadArticle } from './articles.ts';
import { Breadcrumbs } from './breadcrumbs.tsx';
import { MarkdownDocument } from './markdown-document.tsx';

/** One guide: breadcrumbs, the article, and a sticky 'On this page' list of its sections. */
export function HelpArticlePage({ entry }: { entry: HelpEntry }) {
  useDocumentTitle(entry.title);
  const load = useCallback(() => loadArticle(entry.path), [entry.path]);
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:py-16">
      <Breadcrumbs
        trail={[{ label: 'Home', to: '/' }, { label: 'Help Center', to: '/help' }, { label: entry.title }]}
      />
      <MarkdownDocument
        title={entry.title}
        lead={entry.description}
        load={load}
        outlineDepth={3}
        noun="guide"
      />
    </div>
  );
}
