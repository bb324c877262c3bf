import { type MouseEvent, type ReactNode, Suspense, use, useEffect } from 'react';
import { toast } from 'sonner';
import { copyText } from '../../components/ui/copy-button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { useInternalLinks } from '../../lib/use-internal-links.ts';
import type { Article } from './articles.ts';
import { InlineOutline, SideOutline } from './document-outline.tsx';

interface MarkdownDocumentProps {
  title: string;
  /** The line under the title; the document's own description when not given. */
  lead?: string;
  /** Names the document, so each is loaded once ('/help/targeting', 'privacy'). */
  documentKey: string;
  /** Loads the built document (its own chunk). */
  load: () => Promise<Article>;
  /** What the outline lists: sections only (2) or subsections too (3). */
  outlineDepth: 2 | 3;
  /** How the page names itself in its loading and error states: 'guide'. */
  noun: string;
  /** What follows the document in its column (links to the next guides). */
  after?: ReactNode;
}

// One load per document: the prerenderer waits for it, and hydration picks up the same body the HTML has.
// A failed load is forgotten, so coming back to the page tries again.
const loads = new Map<string, Promise<Article | null>>();

function loadOnce(key: string, load: () => Promise<Article>): Promise<Article | null> {
  let pending = loads.get(key);
  if (!pending) {
    pending = load().catch(() => {
      loads.delete(key);
      return null;
    });
    loads.set(key, pending);
  }
  return pending;
}

/**
 * A document built from Markdown (a help article, a legal page): its title, the body in typography
 * styles with links to the app's pages kept in the app, and a sticky 'On this page' outline. The body is
 * in the prerendered HTML; in the app it shows a skeleton while its chunk loads.
 */
export function MarkdownDocument(props: MarkdownDocumentProps) {
  const { title, lead, noun } = props;
  return (
    <Suspense
      fallback={
        <DocumentLayout title={title} lead={lead}>
          <div className="mt-8 space-y-3" role="status" aria-label={`Loading the ${noun}`}>
            <Skeleton className="h-5 w-full" />
            <Skeleton className="h-5 w-11/12" />
            <Skeleton className="h-5 w-4/5" />
          </div>
        </DocumentLayout>
      }
    >
      <LoadedDocument {...props} />
    </Suspense>
  );
}

/** A click on a code block's Copy button: the block's text to the clipboard, confirmed on the button. */
function copyCodeBlock(event: MouseEvent<HTMLElement>): boolean {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>('[data-copy-code]');
  const code = button?.parentElement?.querySelector('pre')?.textContent;
  if (!button || code == null) {
    return false;
  }
  copyText(code.replace(/\n$/, '')).then(
    () => {
      button.textContent = 'Copied';
      button.dataset.copied = '';
      setTimeout(() => {
        button.textContent = 'Copy';
        delete button.dataset.copied;
      }, 1500);
      toast.success('Copied the code');
    },
    () => toast.error('Could not copy the code; select it and copy by hand'),
  );
  return true;
}

function LoadedDocument({
  title,
  lead,
  documentKey,
  load,
  outlineDepth,
  noun,
  after,
}: MarkdownDocumentProps) {
  const followInternalLink = useInternalLinks();
  const article = use(loadOnce(documentKey, load));
  // A link to a section (#targeting) scrolls there once the document is in the page.
  useEffect(() => {
    if (article && window.location.hash) {
      document.getElementById(decodeURIComponent(window.location.hash.slice(1)))?.scrollIntoView();
    }
  }, [article]);
  if (!article) {
    return (
      <DocumentLayout title={title} lead={lead}>
        <p role="alert" className="mt-8 text-red-700">
          This {noun} could not be loaded. Check your connection and reload the page.
        </p>
      </DocumentLayout>
    );
  }
  const outline = article.headings.filter((heading) => heading.level <= outlineDepth);
  return (
    <DocumentLayout title={title} lead={lead ?? article.description} outline={outline} after={after}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: delegates clicks of the links inside */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: links keep their own keyboard behaviour */}
      <div
        onClick={(event) => copyCodeBlock(event) || followInternalLink(event)}
        className="prose prose-gray mt-8 max-w-none prose-headings:scroll-mt-24 prose-a:text-brand-600 prose-code:before:content-none prose-code:after:content-none prose-pre:overflow-x-auto"
        // Built from the repository's own Markdown at build time, never from user input.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: trusted, build-time HTML
        dangerouslySetInnerHTML={{ __html: article.html }}
      />
    </DocumentLayout>
  );
}

interface DocumentLayoutProps {
  title: string;
  lead?: string;
  outline?: Article['headings'];
  children: ReactNode;
  after?: ReactNode;
}

function DocumentLayout({ title, lead, outline = [], children, after }: DocumentLayoutProps) {
  return (
    <div className="mt-6 lg:grid lg:grid-cols-[minmax(0,1fr)_14rem] lg:gap-12">
      <article className="min-w-0">
        <h1 className="text-3xl font-semibold tracking-tight text-gray-900 sm:text-4xl">{title}</h1>
        {lead ? <p className="mt-3 text-lg text-gray-600">{lead}</p> : null}
        {outline.length > 0 ? <InlineOutline headings={outline} /> : null}
        {children}
        {after}
      </article>
      {outline.length > 0 ? <SideOutline headings={outline} /> : null}
    </div>
  );
}
