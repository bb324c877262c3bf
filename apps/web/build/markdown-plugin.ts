import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Marked } from 'marked';
import type { Plugin } from 'vite';

// Help articles are Markdown files with front matter; this turns each into a module at build time, so
// the browser gets HTML and an outline, never a Markdown parser. `file.md` exports
// { title, description, html, headings }; `file.md?meta` only { title, description, sections } (for indexes).
// `virtual:help-search` is every guide's text by route, one chunk the Help Center's search loads on demand.

const HELP_SEARCH_ID = 'virtual:help-search';
const helpDir = fileURLToPath(new URL('../src/content/help', import.meta.url));

export interface Heading {
  id: string;
  text: string;
  level: 2 | 3;
}

/** A heading's anchor: lower-case words joined by dashes ('Sticky sessions' is 'sticky-sessions'). */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/&[a-z]+;/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** `---` delimited `key: value` lines at the top; the rest is the body. */
export function readFrontMatter(source: string): { data: Record<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!match) {
    return { data: {}, body: source };
  }
  const data: Record<string, string> = {};
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      data[line.slice(0, colon).trim()] = line
        .slice(colon + 1)
        .trim()
        .replace(/^(["'])(.*)\1$/, '$2');
    }
  }
  return { data, body: source.slice(match[0].length) };
}

const decodeEntities = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A code block with a Copy button (the article page handles its clicks). The block scrolls sideways
 * when it is wider than the screen, so it takes keyboard focus to be scrolled without a mouse.
 */
function codeBlock(text: string, lang: string | undefined): string {
  const language = lang ? ` class="language-${escapeHtml(lang)}"` : '';
  return `<div class="code-block"><pre tabindex="0"><code${language}>${escapeHtml(text)}</code></pre><button type="button" class="copy-code" data-copy-code>Copy</button></div>\n`;
}

export function renderMarkdown(source: string, file = 'markdown') {
  const { data, body } = readFrontMatter(source);
  if (!data.title || !data.description) {
    throw new Error(`${file}: front matter needs a title and a description`);
  }
  const headings: Heading[] = [];
  const used = new Set<string>();
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth }) {
        const text = this.parser.parseInline(tokens);
        let id = slugify(text);
        for (let n = 2; used.has(id); n++) {
          id = `${slugify(text)}-${n}`;
        }
        used.add(id);
        if (depth === 2 || depth === 3) {
          headings.push({ id, text: text.replace(/<[^>]+>/g, ''), level: depth });
        }
        return `<h${depth} id="${id}">${text}</h${depth}>\n`;
      },
      code({ text, lang }) {
        return codeBlock(text, lang);
      },
    },
  });
  // Tables scroll sideways inside their own box on a narrow screen, rather than widening the page.
  const html = marked
    .parse(body, { async: false })
    .replace(/<table>/g, '<div class="table-scroll" tabindex="0"><table>')
    .replace(/<\/table>/g, '</table></div>');
  return { title: data.title, description: data.description, html, headings };
}

/** The words of rendered HTML, tags dropped and entities decoded, for searching. */
export function plainText(html: string): string {
  return decodeEntities(html.replace(/<button[^>]*>.*?<\/button>/g, ' ').replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every guide's plain text by its route ('/help/targeting'), from the Markdown under src/content/help. */
export function helpSearchTexts(dir = helpDir): Record<string, string> {
  const texts: Record<string, string> = {};
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.md'),
  );
  for (const file of files.sort()) {
    const article = renderMarkdown(readFileSync(join(dir, file), 'utf8'), file);
    texts[`/help/${file.replace(/\\/g, '/').replace(/\.md$/, '')}`] = plainText(article.html);
  }
  return texts;
}

export function markdownPlugin(): Plugin {
  return {
    name: 'bytegate-markdown',
    enforce: 'pre',
    resolveId(id) {
      return id === HELP_SEARCH_ID ? `\0${HELP_SEARCH_ID}` : null;
    },
    load(id) {
      if (id === `\0${HELP_SEARCH_ID}`) {
        for (const file of readdirSync(helpDir, { recursive: true, encoding: 'utf8' })) {
          this.addWatchFile(join(helpDir, file));
        }
        return `export default ${JSON.stringify(helpSearchTexts())};`;
      }
      const [file = '', query = ''] = id.split('?');
      if (!file.endsWith('.md')) {
        return null;
      }
      const article = renderMarkdown(readFileSync(file, 'utf8'), file);
      this.addWatchFile(file);
      // The index (?meta) carries section titles too, so the Help Center can search them without the bodies.
      const exported = query.includes('meta')
        ? {
            title: article.title,
            description: article.description,
            sections: article.headings.map((heading) => decodeEntities(heading.text)),
          }
        : article;
      return `export default ${JSON.stringify(exported)};`;
    },
  };
}
