import type { Article } from '../../features/help/articles.ts';
import { MarkdownDocument } from '../../features/help/markdown-document.tsx';

// The legal documents are Markdown like the help articles, each its own chunk.
const documents = {
  privacy: {
    title: 'Privacy Policy',
    load: (): Promise<Article> => import('../../content/legal/privacy.md').then((module) => module.default),
  },
  terms: {
    title: 'Terms of Service',
    load: (): Promise<Article> => import('../../content/legal/terms.md').then((module) => module.default),
  },
} as const;

/** A legal document (privacy policy, terms of service) with an outline of its sections. */
export function LegalPage({ document }: { document: keyof typeof documents }) {
  const { title, load } = documents[document];
  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:px-6 lg:py-10">
      <MarkdownDocument title={title} documentKey={document} load={load} outlineDepth={2} noun="page" />
    </div>
  );
}
