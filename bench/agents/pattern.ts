// The bytes the bench's origin sends: a fixed 1 MiB block of pseudo-random bytes (the same in every
// process, from a fixed seed), repeated. A reader checks each chunk against the block at its offset with a
// memcmp, cheap enough to run on every byte of the bulk rounds: what arrives through an agent is checked
// to be exactly what the origin sent, in order.

export const BLOCK_BYTES = 1024 * 1024;

function makeBlock(): Buffer {
  const block = Buffer.alloc(BLOCK_BYTES);
  // xorshift32: not random, only varied enough that a lost, repeated or reordered chunk shows.
  let state = 0x9e3779b9;
  for (let i = 0; i < BLOCK_BYTES; i += 4) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    block.writeUInt32LE(state >>> 0, i);
  }
  return block;
}

export const BLOCK = makeBlock();

/** Checks a stream's bytes against the pattern as they arrive; `bad` is the first offset that differed. */
export class PatternCheck {
  offset = 0;
  bad: number | null = null;

  take(chunk: Buffer): void {
    if (this.bad !== null) {
      this.offset += chunk.length;
      return;
    }
    let at = 0;
    while (at < chunk.length) {
      const inBlock = (this.offset + at) % BLOCK_BYTES;
      const length = Math.min(chunk.length - at, BLOCK_BYTES - inBlock);
      if (BLOCK.compare(chunk, at, at + length, inBlock, inBlock + length) !== 0) {
        let wrong = 0;
        while (chunk[at + wrong] === BLOCK[inBlock + wrong]) {
          wrong += 1;
        }
        this.bad = this.offset + at + wrong;
        break;
      }
      at += length;
    }
    this.offset += chunk.length;
  }
}
