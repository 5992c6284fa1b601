/**
 * The embedded store's write-ahead log: where a write becomes durable. A group of writes is one
 * line of JSON appended with one write(2) (and fdatasync when asked), so acknowledging it costs a
 * system call on this thread, not a trip through LevelDB's thread pool: measured here, a LevelDB
 * batch costs about 40 µs of CPU whatever its size, and a task makes about ten writes in four
 * groups. LevelDB then receives the log's writes in large batches in the background (database.ts)
 * and the segment is deleted once they are in.
 *
 * A line is complete only with its newline: a crash in the middle of an append leaves a torn last
 * line, which replay ignores (that group was never acknowledged). Segments are numbered; replay
 * reads them in order.
 */
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

export type Write = { type: 'put'; key: string; value: string } | { type: 'del'; key: string };

const SEGMENT = /^(\d{12})\.wal$/;
/** A segment this large is closed and a new one started, so applied segments can be deleted. */
const SEGMENT_BYTES = 8 * 1024 * 1024;

/**
 * One group as text: `G<length>:` then each write as `P<key length>:<key><value length>:<value>`
 * or `D<key length>:<key>`, then a newline; lengths in UTF-16 code units, as JavaScript counts.
 * Values are JSON already: length-prefixed, they are written as they are, not escaped again.
 */
function encodeGroup(writes: readonly Write[]): string {
  let body = '';
  for (const w of writes) {
    body +=
      w.type === 'put'
        ? `P${w.key.length}:${w.key}${w.value.length}:${w.value}`
        : `D${w.key.length}:${w.key}`;
  }
  return `G${body.length}:${body}\n`;
}

/** The groups of a segment's text; a torn or damaged group ends it (it was never acknowledged). */
function decodeGroups(text: string, into: Write[]): void {
  let at = 0;
  const number = (): number => {
    const colon = text.indexOf(':', at);
    const value = colon < 0 ? Number.NaN : Number(text.slice(at, colon));
    at = colon + 1;
    return value;
  };
  while (at < text.length) {
    if (text[at] !== 'G') return;
    at++;
    const length = number();
    const end = at + length;
    if (!Number.isInteger(length) || end >= text.length || text[end] !== '\n') return;
    const group: Write[] = [];
    while (at < end) {
      const type = text[at++];
      const keyLength = number();
      const key = text.slice(at, at + keyLength);
      at += keyLength;
      if (type === 'D') group.push({ type: 'del', key });
      else if (type === 'P') {
        const valueLength = number();
        group.push({ type: 'put', key, value: text.slice(at, at + valueLength) });
        at += valueLength;
      } else return;
    }
    if (at !== end) return;
    at = end + 1;
    for (const write of group) into.push(write);
  }
}

export class WriteAheadLog {
  private fd: number | undefined;
  private segment = 0;
  private bytes = 0;
  /** Open segments before the current one, with the number of the last write each holds. */
  private readonly closed: { segment: number; upTo: number }[] = [];

  constructor(
    private readonly dir: string,
    private readonly fsync: boolean,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** The numbers of the segments on disk, oldest first. */
  segments(): number[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .flatMap((name) => {
        const match = SEGMENT.exec(name);
        return match ? [Number(match[1])] : [];
      })
      .sort((a, b) => a - b);
  }

  /** Every complete group of every segment on disk, in order (a torn last group left out). */
  replay(): Write[] {
    const writes: Write[] = [];
    for (const segment of this.segments()) decodeGroups(readFileSync(this.pathOf(segment), 'utf8'), writes);
    return writes;
  }

  /**
   * Appends one group whose last write is number `upTo`; when it returns, the group survives a
   * crash of this process (with fsync, of the machine).
   */
  append(writes: readonly Write[], upTo: number): void {
    if (this.fd === undefined || this.bytes >= SEGMENT_BYTES) this.startSegment(upTo - writes.length);
    const text = encodeGroup(writes);
    // The string is written as it is (node encodes it without a Buffer of ours); a short write,
    // which a file on a full disk may give, continues from where it stopped.
    let written = writeSync(this.fd as number, text, null, 'utf8');
    const length = Buffer.byteLength(text, 'utf8');
    if (written < length) {
      const bytes = Buffer.from(text, 'utf8');
      while (written < bytes.length) {
        written += writeSync(this.fd as number, bytes, written, bytes.length - written);
      }
    }
    this.bytes += length;
    if (this.fsync) fdatasyncSync(this.fd as number);
  }

  /** Deletes the closed segments whose every write is in LevelDB (write number <= `applied`). */
  applied(applied: number): void {
    while (this.closed.length > 0 && (this.closed[0] as { upTo: number }).upTo <= applied) {
      unlinkSync(this.pathOf((this.closed.shift() as { segment: number }).segment));
    }
  }

  /** Deletes segments by number (after replaying them). */
  drop(segments: readonly number[]): void {
    for (const segment of segments) unlinkSync(this.pathOf(segment));
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.bytes = 0;
    // Whoever closes the log replays or drops every segment on disk next.
    this.closed.length = 0;
  }

  /** Closes the current segment (its last write is number `upTo`) and opens the next. */
  private startSegment(upTo: number): void {
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.closed.push({ segment: this.segment, upTo });
    }
    this.segment = Math.max(this.segment, ...this.segments()) + 1;
    this.fd = openSync(this.pathOf(this.segment), 'a');
    this.bytes = 0;
    // With fsync, the new segment's directory entry is made durable too: a machine crash must not
    // lose a file whose appends were acknowledged.
    if (this.fsync) {
      const dir = openSync(this.dir, 'r');
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
    }
  }

  private pathOf(segment: number): string {
    return join(this.dir, `${String(segment).padStart(12, '0')}.wal`);
  }
}
