import texts from 'virtual:help-search';
import { describe, expect, it } from 'vitest';
import type { HelpEntry } from './articles.ts';
import { HELP_ENTRIES } from './articles.ts';
import { searchGuides } from './search-guides.ts';

const entry = (path: string, title: string, description: string, sections: string[] = []): HelpEntry => ({
  path,
  title,
  description,
  sections,
});

const guides = [
  entry('/a', 'Protocols', 'HTTP, HTTPS and SOCKS5 on the gateway.', ['SOCKS5', 'HTTP']),
  entry('/b', 'Troubleshooting', 'What each error means.', ['407 THREADS_EXHAUSTED', 'Connection errors']),
  entry('/c', 'Threads', 'How many connections at once.', ['Limits']),
];

describe('searching the guides', () => {
  it('finds every word, by the start of a word, in titles, descriptions and sections', () => {
    expect(searchGuides(guides, 'sock').map((guide) => guide.path)).toEqual(['/a']);
    expect(searchGuides(guides, 'threads_exhausted').map((guide) => guide.path)).toEqual(['/b']);
    expect(searchGuides(guides, 'connection errors').map((guide) => guide.path)).toEqual(['/b']);
    expect(searchGuides(guides, 'ocks')).toEqual([]);
    expect(searchGuides(guides, '  ')).toHaveLength(3);
  });

  it('matches nothing for a query with no letter or digit in it (an emoji, punctuation)', () => {
    expect(searchGuides(guides, '🚀')).toEqual([]);
    expect(searchGuides(guides, ' ?!… ')).toEqual([]);
  });

  it('ranks guides whose title has the word first', () => {
    // 'Threads' in the title of /c, in a section of /b.
    expect(searchGuides(guides, 'threads').map((guide) => guide.path)).toEqual(['/c', '/b']);
  });

  it('searches the real guides by their section titles, and by their text once it is loaded', () => {
    const found = searchGuides(HELP_ENTRIES, 'sticky ports').map((guide) => guide.path);
    expect(found).toContain('/help/connection-types');
    expect(searchGuides(HELP_ENTRIES, 'no_ray')).toEqual([]);
    const byText = searchGuides(HELP_ENTRIES, 'no_ray', texts).map((guide) => guide.path);
    expect(byText).toContain('/help/troubleshooting');
    expect(Object.keys(texts).sort()).toEqual(HELP_ENTRIES.map((guide) => guide.path).sort());
    // The Copy buttons of code blocks are not words of the guides.
    expect(searchGuides(HELP_ENTRIES, 'copy', texts).length).toBeLessThan(HELP_ENTRIES.length);
  });
});
