import { type Framing, MalformedMessage } from './messages.ts';

// Where a message body ends, followed through the bytes that carry it: a length counted down, or the
// chunked framing's state machine (RFC 9112 section 7.1). The bytes themselves pass through untouched.

enum Chunk {
  Size,
  Extension,
  SizeLf,
  Data,
  DataCr,
  DataLf,
  TrailerStart,
  TrailerLine,
  TrailerLf,
  EndLf,
  Done,
}

/**
 * Follows a body through the bytes that carry it and says where it ends. `take(chunk, offset)` answers
 * how many bytes from `offset` belong to the body; `done` turns true at its last byte.
 */
export class BodyTracker {
  done: boolean;
  private left: number;
  private state = Chunk.Size;
  private sizeDigits = 0;

  constructor(private readonly framing: Framing) {
    this.done = framing.kind === 'none';
    this.left = framing.kind === 'length' ? framing.length : 0;
  }

  /** The body ends when its connection does. */
  get isCloseDelimited(): boolean {
    return this.framing.kind === 'close';
  }

  take(chunk: Buffer, offset = 0): number {
    const available = chunk.length - offset;
    if (this.done || available <= 0) {
      return 0;
    }
    switch (this.framing.kind) {
      case 'length': {
        const used = Math.min(this.left, available);
        this.left -= used;
        this.done = this.left === 0;
        return used;
      }
      case 'close':
        return available;
      case 'chunked':
        return this.takeChunked(chunk, offset);
      default:
        return 0;
    }
  }

  private takeChunked(chunk: Buffer, offset: number): number {
    let i = offset;
    while (i < chunk.length && this.state !== Chunk.Done) {
      if (this.state === Chunk.Data) {
        const used = Math.min(this.left, chunk.length - i);
        this.left -= used;
        i += used;
        if (this.left === 0) {
          this.state = Chunk.DataCr;
        }
        continue;
      }
      const byte = chunk[i] as number;
      i += 1;
      switch (this.state) {
        case Chunk.Size: {
          const digit = hexValue(byte);
          if (digit >= 0) {
            if (this.sizeDigits >= 12) {
              throw new MalformedMessage('a chunk size too large');
            }
            this.left = this.left * 16 + digit;
            this.sizeDigits += 1;
          } else if (this.sizeDigits > 0 && (byte === 0x3b || byte === 0x20 || byte === 0x09)) {
            this.state = Chunk.Extension;
          } else if (this.sizeDigits > 0 && byte === 0x0d) {
            this.state = Chunk.SizeLf;
          } else {
            throw new MalformedMessage('an invalid chunk size');
          }
          break;
        }
        case Chunk.Extension:
          if (byte === 0x0d) {
            this.state = Chunk.SizeLf;
          }
          break;
        case Chunk.SizeLf:
          expect(byte, 0x0a);
          this.state = this.left === 0 ? Chunk.TrailerStart : Chunk.Data;
          break;
        case Chunk.DataCr:
          expect(byte, 0x0d);
          this.state = Chunk.DataLf;
          break;
        case Chunk.DataLf:
          expect(byte, 0x0a);
          this.state = Chunk.Size;
          this.sizeDigits = 0;
          break;
        case Chunk.TrailerStart:
          this.state = byte === 0x0d ? Chunk.EndLf : Chunk.TrailerLine;
          break;
        case Chunk.TrailerLine:
          if (byte === 0x0d) {
            this.state = Chunk.TrailerLf;
          }
          break;
        case Chunk.TrailerLf:
          expect(byte, 0x0a);
          this.state = Chunk.TrailerStart;
          break;
        case Chunk.EndLf:
          expect(byte, 0x0a);
          this.state = Chunk.Done;
          this.done = true;
          break;
      }
    }
    return i - offset;
  }
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) {
    return byte - 0x30;
  }
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

function expect(byte: number, wanted: number): void {
  if (byte !== wanted) {
    throw new MalformedMessage('broken chunked framing');
  }
}
