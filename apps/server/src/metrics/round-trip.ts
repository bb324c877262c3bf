/**
 * Times one round trip (`run`, such as a database's `select 1`) each time it is called, bounded by
 * `timeoutMs`: answers the seconds it took, or null when it failed or did not answer in time. While an
 * earlier one is still unanswered no other starts (the answer is null at once): a hung database would
 * otherwise hold one more stuck query, and a pooled connection, every scrape.
 */
export function createRoundTripProbe(
  run: () => Promise<unknown>,
  timeoutMs: number,
): () => Promise<number | null> {
  let isUnanswered = false;
  return async () => {
    if (isUnanswered) {
      return null;
    }
    isUnanswered = true;
    const started = performance.now();
    const attempt = run().finally(() => {
      isUnanswered = false;
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        attempt,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      return (performance.now() - started) / 1000;
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  };
}
