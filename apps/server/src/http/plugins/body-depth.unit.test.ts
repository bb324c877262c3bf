import { describe, expect, it } from 'vitest';
import { createDepthScanner } from './body-depth.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const scan = (maxDepth: number, ...pieces: string[]) => {
  const isWithinDepth = createDepthScanner(maxDepth);
  return pieces.every((piece) => isWithinDepth(bytes(piece)));
};

describe('createDepthScanner', () => {
  it('allows nesting up to the limit and refuses one level more, arrays and objects alike', () => {
    expect(scan(3, '{"a":[{"b":1}]}')).toBe(true);
    expect(scan(3, '{"a":[{"b":[1]}]}')).toBe(false);
    expect(scan(3, '[[[1]]]')).toBe(true);
    expect(scan(3, '[[[[1]]]]')).toBe(false);
  });

  it('counts depth, not brackets: siblings at the same level are fine', () => {
    expect(scan(2, `[${'[1],'.repeat(1000)}[2]]`)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(scan(1, '{"a":"[[[[{{{{"}')).toBe(true);
    expect(scan(1, '{"a":"say \\"[[[[\\" twice"}')).toBe(true);
    expect(scan(1, '{"a":"ends with a backslash \\\\","b":[1]}')).toBe(false);
    expect(scan(1, '["\u6771[", "🚀{"]')).toBe(true);
  });

  it('keeps its place across chunks, even mid-string and mid-escape', () => {
    expect(scan(2, '{"a":"[[', '[["}')).toBe(true);
    expect(scan(2, '{"a":"\\', '"[[[["}')).toBe(true);
    expect(scan(2, '[[', '[1]]]')).toBe(false);
  });
});
