import { useEffect, useState } from 'react';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { useInternalLinks } from '../../lib/use-internal-links.ts';
import type { Article } from './articles.ts';

interface MarkdownDocumentProps {
  title: string;
  /** The line under the title; the document's own description when not given. */
  lead?: string;
  /** Loads the built document (its own chunk). */
  load: () => Promise<Article> | null;
  /** What the outline lists: sections only (2) or subsections too (3). */
  outlineDepth: 2 | 3;
  /** How the page names itself in its loading and error states: 'guide'. */
  noun: string;
}

/**
 * A document built from Markdown (a help article, a legal page): its title, the body in typography
 * styles with links to the app's pages kept in the app, and a sticky 'On this page' outline.
 */
export function MarkdownDocument({ title, lead, load, outlineDepth, noun }: MarkdownDocumentProps) {
  const followInternalLink = useInternalLinks();
  const [article, setArticle] = useState<Article | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let isCurrent = true;
    setArticle(null);
    setFailed(false);
    load()?.then(
      (loaded) => isCurrent && setArticle(loaded),
      () => isCurrent && setFailed(true),
    );
    return () => {
      isCurrent = false;
    };
  }, [load]);
  // A link to a section (#targeting) scrolls there once the document is in the page.
  useEffect(() => {
    if (article && window.location.hash) {
      document.getElementById(decodeURIComponent(window.location.hash.slice(1)))?.scrollIntoView();
    }
  }, [article]);
  const outline = article?.headings.filter((heading) => heading.level <= outlineDepth) ?? [];
  const description = lead ?? article?.description;

  return (
    <div className="mt-6 lg:grid lg:grid-cols-[minmax(0,1fr)_14rem] lg:gap-12">
      <article className="min-w-0">
        <h1 className="text-3xl font-semibold tracking-tight text-gray-900 sm:text-4xl">{title}</h1>
        {description ? <p className="mt-3 text-lg text-gray-600">{description}</p> : null}
        {failed ? (
          <p role="alert" className="mt-8 text-red-700">
            This {noun} could not be loaded. Check your connection and reload the page.
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
          <div className="mt-8 space-y-3" role="status" aria-label={`Loading the ${noun}`}>
            <Skeleton className="h-5 w-full" />
            <Skeleton className="h-5 w-11/12" />
            <Skeleton className="h-5 w-4/5" />
          </div>
        )}
      </article>
      {outline.length > 0 ? (
        <nav aria-label="On this page" className="hidden lg:block">
          <div className="sticky top-24">
            <p className="text-sm font-semibold text-gray-900">On this page</p>
            <ul className="mt-3 space-y-2 border-l border-gray-200 text-sm">
              {outline.map((heading) => (
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
  );
}
