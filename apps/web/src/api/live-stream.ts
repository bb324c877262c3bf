/** Reading the live view's Server-Sent Events over fetch, so a refusal (429, 401) and its message show. */

/** Splits received text into complete SSE events (`event`, `data`); the unfinished rest is kept. */
export function parseServerSentEvents(text: string): {
  events: Array<{ event: string; data: string }>;
  rest: string;
} {
  const blocks = text.split('\n\n');
  const rest = blocks.pop() ?? '';
  const events = blocks.flatMap((block) => {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) {
        event = line.slice(6).trim();
      } else if (line.startsWith('data:')) {
        data.push(line.slice(5).replace(/^ /, ''));
      }
    }
    return data.length > 0 ? [{ event, data: data.join('\n') }] : [];
  });
  return { events, rest };
}

/**
 * When to try the stream again, by how it ended: soon after a normal end (the server's 10 minutes),
 * backing off after errors, half a minute after a 429 (too many open elsewhere: the message shows
 * meanwhile), and never after a 401 (signed out).
 */
export function liveRetryDelayMs(outcome: { status: number | null; failures: number }): number | null {
  if (outcome.status === 401 || outcome.status === 403) {
    return null;
  }
  if (outcome.status === 429) {
    return 30_000;
  }
  if (outcome.status === 200 && outcome.failures === 0) {
    return 1000;
  }
  return Math.min(30_000, 2000 * 2 ** Math.max(0, outcome.failures - 1));
}
