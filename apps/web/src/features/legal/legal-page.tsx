import { useEffect, useState } from 'react';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useInternalLinks } from '../../lib/use-internal-links.ts';
import type { Article } from '../help/articles.ts';

// The legal documents are Markdown like the help articles, each its own chunk.
const documents = {
  privacy: { title: 'Privacy Policy', load: () => import('../../content/legal/privacy.md') },
  terms: { title: 'Terms of Service', load: () => import('../../content/legal/terms.md') },
} as const;

/** A legal document (privacy policy, terms of service) with an outline of its sections. */
export function LegalPage({ document }: { document: keyof typeof documents }) {
  const { title, load } = documents[document];
  useDocumentTitle(title);
  const followInternalLink = useInternalLinks();
  const [article, setArticle] = useState<Article | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let isCurrent = true;
    load().then(
      (module) => isCurrent && setArticle(module.default),
      () => isCurrent && setFailed(true),
    );
    return () => {
      isCurrent = false;
    };
  }, [load]);

  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:py-16">
      <div className="lg:grid lg:grid-cols-[minmax(0,1fr)_14rem] lg:gap-12">
        <article className="min-w-0">
          <h1 className="text-3xl font-semibold tracking-tight text-gray-900 sm:text-4xl">{title}</h1>
          {failed ? (
            <p role="alert" className="mt-8 text-red-700">
              This page could not be loaded. Check your connection and reload the page.
            </p>
          ) : article ? (
            <>
              <p className="mt-3 text-lg text-gray-600">{article.description}</p>
              {/* biome-ignore lint/a11y/noStaticElementInteractions: delegates clicks of the links inside */}
              {/* biome-ignore lint/a11y/useKeyWithClickEvents: links keep their own keyboard behaviour */}
              <div
                onClick={followInternalLink}
                className="prose prose-gray mt-8 max-w-none prose-headings:scroll-mt-24 prose-a:text-brand-600"
                // Built from the repository's own Markdown at build time, never from user input.
                // biome-ignore lint/security/noDangerouslySetInnerHtml: trusted, build-time HTML
                dangerouslySetInnerHTML={{ __html: article.html }}
              />
            </>
          ) : (
            <div className="mt-8 space-y-3" role="status" aria-label={`Loading the ${title.toLowerCase()}`}>
              <Skeleton className="h-5 w-full" />
              <Skeleton className="h-5 w-11/12" />
              <Skeleton className="h-5 w-4/5" />
            </div>
          )}
        </article>
        {article ? (
          <nav aria-label="On this page" className="hidden lg:block">
            <div className="sticky top-24">
              <p className="text-sm font-semibold text-gray-900">On this page</p>
              <ul className="mt-3 space-y-2 border-l border-gray-200 text-sm">
                {article.headings
                  .filter((heading) => heading.level === 2)
                  .map((heading) => (
                    <li key={heading.id} className="pl-3">
                      <a href={`#${heading.id}`} className="text-gray-600 hover:text-brand-700">
                        {heading.text}
                      </a>
                    </li>
                  ))}
              </ul>
            </div>
          </nav>
        ) : null}
      </div>
    </div>
  );
}
