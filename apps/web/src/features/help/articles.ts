import { HELP_ARTICLE_PATHS } from '@bytegate/contracts/routes';

export interface ArticleMeta {
  title: string;
  description: string;
}

export interface Article extends ArticleMeta {
  html: string;
  headings: Array<{ id: string; text: string; level: 2 | 3 }>;
}

/** What the index of guides knows of each without loading it: its sections' titles besides its own. */
interface ArticleIndexEntry extends ArticleMeta {
  sections: string[];
}

// Articles live as Markdown under src/content/help, one file per route (help/targeting/target-filters.md is
// /help/targeting/target-filters). Titles and descriptions are bundled for the index; each article's
// body is its own chunk, loaded when it is opened.
const metas = import.meta.glob<ArticleIndexEntry>('../../content/help/**/*.md', {
  query: '?meta',
  import: 'default',
  eager: true,
});
const bodies = import.meta.glob<Article>('../../content/help/**/*.md', { import: 'default' });

const fileOf = (path: string) => `../../content/help/${path.replace(/^\/help\//, '')}.md`;

export interface HelpEntry extends ArticleIndexEntry {
  path: string;
}

/** Every help route of SPEC section 2 in its order, with its article's title and description. */
export const HELP_ENTRIES: HelpEntry[] = HELP_ARTICLE_PATHS.map((path) => {
  const meta = metas[fileOf(path)];
  if (!meta) {
    throw new Error(`The help article ${path} has no Markdown file at src/content/help${path.slice(5)}.md`);
  }
  return { path, ...meta };
});

export function loadArticle(path: string): Promise<Article> {
  const load = bodies[fileOf(path)];
  return load ? load() : Promise.reject(new Error(`No help article at ${path}`));
}
