const TITLE = /<title>[^<]*<\/title>/;
const PAGE_HEAD_TAGS = /\s*<[a-z]+ [^>]*data-page-head[^>]*\/?>/g;
const ROOT = '<div id="root"></div>';

/**
 * A prerendered document: the client build's index.html with the page's own head (title, meta, links,
 * structured data) in place of the defaults and the page's HTML inside #root.
 */
export function fillTemplate(template: string, head: string, body: string): string {
  if (!TITLE.test(template) || !template.includes(ROOT)) {
    throw new Error('index.html needs a <title> and an empty <div id="root"></div>');
  }
  return template
    .replace(PAGE_HEAD_TAGS, '')
    .replace(TITLE, () => head)
    .replace(ROOT, () => `<div id="root">${body}</div>`);
}
