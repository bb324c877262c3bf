import { useEffect, useState } from 'react';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useInternalLinks } from '../../lib/use-internal-links.ts';
import { type Article, type HelpEntry, loadArticle } from './articles.ts';
import { Breadcrumbs } from './breadcrumbs.tsx';

/** One guide: breadcrumbs, the article, and a sticky 'On this page' list of its sections. */
export function HelpArticlePage({ entry }: { entry: HelpEntry }) {
  useDocumentTitle(entry.title);
  // Links between guides stay in the app instead of reloading the page.
  const followInternalLink = useInternalLinks();
  const [article, setArticle] = useState<Article | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let isCurrent = true;
    setArticle(null);
    loadArticle(entry.path)?.then(
      (loaded) => isCurrent && setArticle(loaded),
      () => isCurrent && setFailed(true),
    );
    return () => {
      isCurrent = false;
    };
  }, [entry.path]);
  // A link to a section (#targeting) scrolls there once the article is in the page.
  useEffect(() => {
    if (article && window.location.hash) {
      document.getElementById(decodeURIComponent(window.location.hash.slice(1)))?.scrollIntoView();
    }
  }, [article]);

  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:py-16">
      <Breadcrumbs
        trail={[{ label: 'Home', to: '/' }, { label: 'Help Center', to: '/help' }, { label: entry.title }]}
      />
      <div className="mt-6 lg:grid lg:grid-cols-[minmax(0,1fr)_14rem] lg:gap-12">
        <article className="min-w-0">
          <h1 className="text-3xl font-semibold tracking-tight text-gray-900 sm:text-4xl">{entry.title}</h1>
          <p className="mt-3 text-lg text-gray-600">{entry.description}</p>
          {failed ? (
            <p role="alert" className="mt-8 text-red-700">
              This guide could not be loaded. Check your connection and reload the page.
            </p>
          ) : article ? (
            // biome-ignore lint/a11y/noStaticElementInteractions: delegates clicks of the links inside
            // biome-ignore lint/a11y/useKeyWithClickEvents: links keep their own keyboard behaviour
            <div
              onClick={followInternalLink}
              className="prose prose-gray mt-8 max-w-none prose-headings:scroll-mt-24 prose-a:text-brand-600 prose-code:before:content-none prose-code:after:content-none prose-pre:overflow-x-auto"
              // Built from the repository's own Markdown at build time, never from user input.
              // biome-ignore lint/security/noDangerouslySetInnerHtml: trusted, build-time HTML
              dangerouslySetInnerHTML={{ __html: article.html }}
            />
          ) : (
            <div className="mt-8 space-y-3" role="status" aria-label="Loading the guide">
              <Skeleton className="h-5 w-full" />
              <Skeleton className="h-5 w-11/12" />
              <Skeleton className="h-5 w-4/5" />
            </div>
          )}
        </article>
        {article && article.headings.length > 0 ? (
          <nav aria-label="On this page" className="hidden lg:block">
            <div className="sticky top-24">
              <p className="text-sm font-semibold text-gray-900">On this page</p>
              <ul className="mt-3 space-y-2 border-l border-gray-200 text-sm">
                {article.headings.map((heading) => (
                  <li key={heading.id} className={heading.level === 3 ? 'pl-6' : 'pl-3'}>
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
