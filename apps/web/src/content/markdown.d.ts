declare module '*.md' {
  const article: {
    title: string;
    description: string;
    html: string;
    headings: Array<{ id: string; text: string; level: 2 | 3 }>;
  };
  export default article;
}
