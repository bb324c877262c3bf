declare module '*.md' {
  const article: {
    title: string;
    description: string;
    html: string;
    headings: Array<{ id: string; text: string; level: 2 | 3 }>;
  };
  export default article;
}

declare module 'virtual:help-search' {
  /** Every guide's plain text by its route, for the Help Center's search (apps/web/build/markdown-plugin.ts). */
  const texts: Record<string, string>;
  export default texts;
}
