/**
 * Orkes' tag routes of definitions (docs/conductor-compat.md §1.2, §2.22; as the SDK's
 * MetadataClient calls them): `/api/metadata/workflow/{name}/tags` (a workflow name's, shared by
 * its versions; the static `tags` segment wins over `/workflow/{name}/{version}`) and
 * `/api/metadata/task/{taskName}/tags`. GET answers the tags; POST adds one tag or a list (a key
 * already there gets the new value), PUT replaces them all, DELETE removes the tags given (key
 * and value both matching). 404 when no definition has the name.
 */

import type { BodyContract } from '../../http/contract.ts';
import { pathParams, stringValue } from '../../http/contract.ts';
import { emptyOk, json } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import { TAG_BODY, tagsOfBody } from '../../model/tags.ts';
import type { DefinitionKind, MetadataService, TagChange } from '../service.ts';

const TAGS_BODY: BodyContract = { ...TAG_BODY, required: true };

type TagPath = '/api/metadata/workflow/{name}/tags' | '/api/metadata/task/{taskName}/tags';

const PATHS: Record<DefinitionKind, { path: TagPath; param: 'name' | 'taskName'; what: string }> = {
  workflow: { path: '/api/metadata/workflow/{name}/tags', param: 'name', what: 'a workflow definition' },
  task: { path: '/api/metadata/task/{taskName}/tags', param: 'taskName', what: 'a task definition' },
};

function tagRoutesOf(metadata: MetadataService, kind: DefinitionKind): RouteDef[] {
  const { path, param, what } = PATHS[kind];
  const params = pathParams({ [param]: stringValue(`The name of ${what}`) });
  const nameOf = (ctx: { params: Readonly<Record<string, string>> }) => ctx.params[param] as string;
  const changing = (
    method: 'POST' | 'PUT' | 'DELETE',
    summary: string,
    change: (body: unknown) => TagChange,
  ) =>
    route({
      method,
      path,
      permission: 'definitions:manage',
      summary,
      request: { params, body: TAGS_BODY },
      handler: async (ctx) => {
        await metadata.changeTags(kind, nameOf(ctx), change(await ctx.json()));
        return emptyOk();
      },
    });
  return [
    route({
      method: 'GET',
      path,
      permission: 'definitions:read',
      summary: `The tags of ${what}`,
      request: { params },
      responds: 'application/json',
      returns: 'Tag[]',
      handler: async (ctx) => json(await metadata.tags(kind, nameOf(ctx))),
    }),
    changing('POST', `Add tags to ${what} (a key already there gets the new value)`, (body) => ({
      add: tagsOfBody(body),
    })),
    changing('PUT', `Replace the tags of ${what}`, (body) => ({ replace: tagsOfBody(body) })),
    changing('DELETE', `Remove tags of ${what} (key and value matching)`, (body) => ({
      remove: tagsOfBody(body),
    })),
  ];
}

export function definitionTagRoutes(metadata: MetadataService): RouteDef[] {
  return [...tagRoutesOf(metadata, 'workflow'), ...tagRoutesOf(metadata, 'task')];
}
