/**
 * Tags of workflow definitions, task definitions, schedules and event handlers (Orkes' TagObject;
 * docs/conductor-compat.md §2.22, docs/api.md "Tags"): `{key, value}` pairs, one value per key,
 * kept in order of first addition. They are stored with what they tag and answered with Orkes'
 * `type: "METADATA"` (the only type accepted: this service has no tag-based rate limits or
 * permissions).
 *
 * The routes that change them (`.../{name}/tags`) take one tag or a list: adding a tag whose key is
 * there replaces its value, replacing puts the given list in place of every tag, deleting removes
 * the tags whose key and value both match.
 */
import { type BodySchema, bodySchema, parseBody } from '../validation/body-schema.ts';
import { type FieldError, ValidationError } from './errors.ts';

export interface Tag {
  key: string;
  value: string;
}

/** A tag as the API answers it. */
export interface TagView extends Tag {
  type: 'METADATA';
}

/** Most tags one definition, schedule or handler holds (docs/api.md "Limits"). */
export const MAX_TAGS = 100;
/** Longest tag key or value, in characters. */
export const MAX_TAG_LENGTH = 512;

const TAG_OBJECT = {
  type: 'object',
  required: ['key', 'value'],
  properties: {
    key: { type: 'string', minLength: 1, maxLength: MAX_TAG_LENGTH, description: 'Tag key' },
    value: { type: 'string', maxLength: MAX_TAG_LENGTH, description: 'Tag value' },
    type: { enum: ['METADATA'], description: 'METADATA (the default; deprecated in the SDKs)' },
  },
} as const;

/** One tag: `{key, value}`, `type` METADATA or absent. */
export const TAG = bodySchema('Tag', TAG_OBJECT);

/** A list of tags. */
export const TAG_LIST = bodySchema('Tag list', {
  type: 'array',
  maxItems: MAX_TAGS,
  items: TAG_OBJECT,
} as const);

/**
 * The body of the tag routes: one tag or a list (the SDKs send one to add or delete, a list to
 * replace). Its schema only describes it: tagsOfBody checks it against TAG or TAG_LIST, so a
 * problem is answered for the one shape the body has, not for both.
 */
export const TAG_BODY = bodySchema('Tag', {
  description: 'A tag {key, value, type: METADATA (optional)}, or a list of them',
});

/** The tags of a tag route's body (TAG_BODY), checked; a wrong one is a 400 naming every problem. */
export function tagsOfBody(body: unknown): Tag[] {
  return tagsOf(Array.isArray(body) ? parseBody(TAG_LIST, body) : parseBody(TAG, body));
}

/** The tags a checked value holds (one or a list), as stored: `{key, value}`, one per key, the last winning. */
export function tagsOf(value: unknown): Tag[] {
  const list = Array.isArray(value) ? value : [value];
  return merged([], list as Tag[]);
}

/**
 * The problems of a `tags` field of a definition, schedule or handler body, worded as the tag routes
 * word them, with paths under `tags` (`tags[0].key`); none when the field is absent or null.
 */
export function tagFieldProblems(value: unknown): FieldError[] {
  if (value === undefined || value === null) return [];
  try {
    parseBody(TAG_LIST as BodySchema<unknown>, value);
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.validationErrors.map((e) => ({
      ...e,
      path: e.path === 'body' || e.path === '' ? 'tags' : `tags${e.path.startsWith('[') ? '' : '.'}${e.path}`,
    }));
  }
}

/**
 * The `tags` field of a body as stored; undefined when absent or null. A wrong one is a 400 naming
 * the body (`title`) and every problem.
 */
export function tagsField(value: unknown, title: string): Tag[] | undefined {
  const problems = tagFieldProblems(value);
  if (problems.length > 0) {
    throw new ValidationError(
      `Invalid ${title}: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
      problems,
    );
  }
  return value === undefined || value === null ? undefined : tagsOf(value);
}

/** `current` with `added` in: a key already there gets the new value in place, new keys go last. */
export function withTags(current: readonly Tag[], added: readonly Tag[]): Tag[] {
  return merged(current, added);
}

/** `current` without the tags whose key and value match one of `removed`. */
export function withoutTags(current: readonly Tag[], removed: readonly Tag[]): Tag[] {
  return current.filter((t) => !removed.some((r) => r.key === t.key && r.value === t.value));
}

/** What a tag route asks of a thing's tags: add to them, replace them all, or remove some. */
export type TagChange = { add: Tag[] } | { replace: Tag[] } | { remove: Tag[] };

/** The tags `change` makes of `current`; more than MAX_TAGS is a 400 (checkTagCount). */
export function applyTagChange(current: readonly Tag[], change: TagChange): Tag[] {
  const next =
    'add' in change
      ? withTags(current, change.add)
      : 'replace' in change
        ? withTags([], change.replace)
        : withoutTags(current, change.remove);
  return checkTagCount(next) as Tag[];
}

/** Fails when a change would leave more than MAX_TAGS tags. */
export function checkTagCount(tags: readonly Tag[]): readonly Tag[] {
  if (tags.length > MAX_TAGS) {
    throw new ValidationError(`At most ${MAX_TAGS} tags are kept, this change leaves ${tags.length}`, [
      { path: 'body', message: `must leave at most ${MAX_TAGS} tags` },
    ]);
  }
  return tags;
}

/** Tags as the API answers them. */
export const tagViews = (tags: readonly Tag[] | undefined): TagView[] =>
  (tags ?? []).map((t) => ({ key: t.key, type: 'METADATA', value: t.value }));

function merged(current: readonly Tag[], added: readonly Tag[]): Tag[] {
  const out = current.map((t) => ({ key: t.key, value: t.value }));
  for (const tag of added) {
    const at = out.findIndex((t) => t.key === tag.key);
    const copy = { key: tag.key, value: tag.value };
    if (at < 0) out.push(copy);
    else out[at] = copy;
  }
  return out;
}
