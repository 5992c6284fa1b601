/**
 * Contract pieces the application routes share: the ids in their paths, the role, the name and
 * tag bodies, and who a change is recorded as made by.
 */
import { type BodyContract, pathParams, stringValue } from '../../http/contract.ts';
import type { RouteContext } from '../../http/router.ts';
import { ROLES } from '../../security/roles.ts';
import { type BodyOf, bodySchema } from '../../validation/body-schema.ts';
import { MAX_NAME_LENGTH, MAX_TAGS } from '../model.ts';
import { ANONYMOUS } from '../service.ts';

export const APP_PARAMS = pathParams({ id: stringValue('Application id') });

export const APP_KEY_PARAMS = pathParams({
  applicationId: stringValue('Application id'),
  keyId: stringValue('Access key id'),
});

export const ROLE_PARAMS = pathParams({
  applicationId: stringValue('Application id'),
  role: { type: 'string', enum: [...ROLES], description: `one of ${ROLES.join(', ')}` },
});

const APPLICATION = bodySchema(
  'CreateOrUpdateApplicationRequest',
  {
    type: 'object',
    description: 'The application’s name',
    required: ['name'],
    properties: { name: { type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH } },
  },
  {
    messages: {
      name: { required: 'Application name is required', minLength: 'Application name cannot be empty' },
    },
  },
);

export const APPLICATION_BODY: BodyContract<BodyOf<typeof APPLICATION>> = { ...APPLICATION, required: true };

const TAGS = bodySchema('Tag[]', {
  type: 'array',
  maxItems: MAX_TAGS,
  description: `Tags {key, value} (at most ${MAX_TAGS})`,
  items: {
    type: 'object',
    required: ['key', 'value'],
    properties: {
      key: { type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH },
      value: { type: 'string', maxLength: MAX_NAME_LENGTH },
      type: { type: 'string', maxLength: MAX_NAME_LENGTH },
    },
  },
});

export const TAGS_BODY: BodyContract<BodyOf<typeof TAGS>> = { ...TAGS, required: true };

/** Whom a change is recorded as made by: the caller's key, or `anonymous` with security off. */
export const callerOf = (ctx: RouteContext): string => ctx.principal?.keyId ?? ANONYMOUS;
