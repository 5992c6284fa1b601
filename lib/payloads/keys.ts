/**
 * The keys of the payload store, and the only paths it accepts. Two kinds:
 * - `sha256/<hex>.json`: a payload the service externalized itself, named by its content's SHA-256,
 *   so the same payload (a task's output templated whole into the next task's input, or a record
 *   committed again unchanged) is stored once, and a key is never rewritten with other content;
 * - `<payload-type>/<uuid>.json` (e.g. `task-output/...`): a location handed to a client for an
 *   upload (GET .../externalstoragelocation?operation=WRITE), random and unguessable.
 * A path is checked against these two shapes before any adapter sees it: no traversal, no
 * caller-chosen names.
 */
import { createHash, randomUUID } from 'node:crypto';

/**
 * Where payloads live in the stack's files bucket (lib/payloads/s3.ts); the IAM grant of the
 * functions that read and write runs names exactly this prefix (infra/constructs/data.ts).
 */
export const PAYLOAD_PREFIX = 'payloads/';

/**
 * The S3 tag the payload sweep puts on a payload nothing refers to (s3.ts); the files bucket's
 * lifecycle rule expires objects under PAYLOAD_PREFIX that carry it (infra/constructs/data.ts).
 */
export const UNREFERENCED_TAG = { Key: 'conductor-payload', Value: 'unreferenced' } as const;

export const PAYLOAD_TYPES = ['WORKFLOW_INPUT', 'WORKFLOW_OUTPUT', 'TASK_INPUT', 'TASK_OUTPUT'] as const;
export type PayloadType = (typeof PAYLOAD_TYPES)[number];

const UPLOAD_NAMESPACES = ['workflow-input', 'workflow-output', 'task-input', 'task-output'] as const;
const CONTENT_KEY = /^sha256\/[0-9a-f]{64}\.json$/;
const UPLOAD_KEY =
  /^(workflow-input|workflow-output|task-input|task-output)\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/;

/** The key a payload is externalized under: its content's hash. */
export function contentKey(json: string): string {
  return `sha256/${createHash('sha256').update(json).digest('hex')}.json`;
}

/** A fresh upload key for a client's payload of this type. */
export function uploadKey(type: PayloadType): string {
  const namespace = UPLOAD_NAMESPACES[PAYLOAD_TYPES.indexOf(type)];
  return `${namespace}/${randomUUID()}.json`;
}

/** Either key shape, anywhere in a text (global: every occurrence). */
const ANY_KEY =
  /(?:sha256\/[0-9a-f]{64}|(?:workflow-input|workflow-output|task-input|task-output)\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.json/g;

/**
 * Every payload key named anywhere in a stored text (a record's JSON, a schedule's start request):
 * what the payload sweep (sweep.ts) keeps. It reads the text, not the fields, so it holds for every
 * stored shape of a record, old or compact, and a key quoted inside a payload counts too (a sweep
 * that keeps one payload too many is harmless; one too few loses data).
 */
export function payloadKeysIn(text: string): string[] {
  return text.match(ANY_KEY) ?? [];
}

export const isContentKey = (path: string): boolean => CONTENT_KEY.test(path);
export const isUploadKey = (path: string): boolean => UPLOAD_KEY.test(path);
/** Any key this service issues; everything else is rejected before a store is asked. */
export const isPayloadKey = (path: string): boolean => isContentKey(path) || isUploadKey(path);
