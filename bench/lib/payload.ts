/**
 * Task inputs and outputs of a given size for the benchmarks' `--payload-bytes` (bench/README.md):
 * pseudo-random but shaped like real business JSON (an order with lines: repeated keys, ids, numbers,
 * short strings from small vocabularies), so it compresses about as well as real payloads do,
 * unlike a string of zeros (which deflates to nothing) or random bytes (which do not deflate).
 * Seeded, so two runs of a benchmark write the same bytes.
 */
import { PROPERTIES } from '../../lib/config/properties.ts';
import { prng } from '../../test/helpers/fuzz.ts';
import type { Args } from './args.ts';

const WORDS = ['packed', 'shipped', 'on hold', 'backorder', 'gift wrap', 'fragile', 'express', 'returned'];
const TIERS = ['bronze', 'silver', 'gold', 'platinum'];
const CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF'];

export type Payload = Record<string, unknown>;

/** An order-like object whose JSON is about `bytes` long (at least that, within one line). */
export function payloadOf(bytes: number, seed: number): Payload {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const hex = (digits: number) =>
    Math.floor(random() * 16 ** digits)
      .toString(16)
      .padStart(digits, '0');
  const order: Payload & { lines: Payload[] } = {
    orderId: `ord-${hex(8)}`,
    customer: {
      id: `cus-${hex(6)}`,
      tier: pick(TIERS),
      since: 1_600_000_000_000 + Math.floor(random() * 1e11),
    },
    currency: pick(CURRENCIES),
    lines: [],
  };
  let size = JSON.stringify(order).length;
  while (size < bytes) {
    const line = {
      sku: `SKU-${hex(5).toUpperCase()}`,
      qty: 1 + Math.floor(random() * 9),
      price: Math.round(random() * 20_000) / 100,
      status: pick(WORDS),
      note: `${pick(WORDS)} ${pick(WORDS)}`,
    };
    order.lines.push(line);
    size += JSON.stringify(line).length + 1;
  }
  return order;
}

/** `count` distinct payloads of about `bytes` each, to hand out in turn (no generation per task). */
export function payloadPool(bytes: number, count = 16): Payload[] {
  return Array.from({ length: count }, (_, i) => payloadOf(bytes, i + 1));
}

/**
 * The external-payload threshold (lib/payloads): a larger input or output would go to S3, which the
 * counting pass does not meter, so `--payload-bytes` stays below it (the JSON around `data` included).
 */
const EXTERNAL_PAYLOAD_BYTES = Number(
  PROPERTIES.find((p) => p.name === 'service.external-payload.threshold-bytes')?.default,
);
export const MAX_PAYLOAD_BYTES = EXTERNAL_PAYLOAD_BYTES - 1024;

/** `--payload-bytes=N` (default 0: today's tiny inputs and outputs). */
export function payloadBytesOption(args: Args): number {
  const bytes = args.int('payload-bytes', 0);
  if (bytes > MAX_PAYLOAD_BYTES) {
    throw new Error(
      `--payload-bytes must be at most ${MAX_PAYLOAD_BYTES} (larger payloads go to S3, which the bench does not meter), got ${bytes}`,
    );
  }
  return bytes;
}
