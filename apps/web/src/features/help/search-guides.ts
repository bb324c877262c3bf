import type { HelpEntry } from './articles.ts';

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/**
 * The guides that mention every word of the query (word starts count: 'sock' finds SOCKS5) in their
 * title, description, section titles or, once loaded, their text (`texts` by route); guides whose title
 * has a word rank first. An empty query is all; one without a letter or digit is none.
 */
export function searchGuides(
  entries: readonly HelpEntry[],
  query: string,
  texts: Readonly<Record<string, string>> = {},
): HelpEntry[] {
  const wanted = words(query);
  if (wanted.length === 0) {
    // Nothing typed is everything; something typed with no word in it (an emoji, '???') matches nothing.
    return query.trim() === '' ? [...entries] : [];
  }
  const scored: Array<{ entry: HelpEntry; score: number; order: number }> = [];
  entries.forEach((entry, order) => {
    const title = words(entry.title);
    const rest = words(`${entry.description} ${entry.sections.join(' ')} ${texts[entry.path] ?? ''}`);
    const has = (list: string[], word: string) => list.some((candidate) => candidate.startsWith(word));
    if (wanted.every((word) => has(title, word) || has(rest, word))) {
      scored.push({ entry, score: wanted.filter((word) => has(title, word)).length, order });
    }
  });
  return scored.sort((a, b) => b.score - a.score || a.order - b.order).map(({ entry }) => entry);
}
