/**
 * Orkes' tag routes of definitions (docs/conductor-compat.md §1.2, §2.22; as the SDK's
 * MetadataClient calls them): `/api/metadata/workflow/{name}/tags` (a workflow name's, shared by
 * its versions; the static `tags` segment wins over `/workflow/{name}/{version}`) and
 * `/api/metadata/task/{taskName}/tags`. GET answers the tags; POST adds one tag or a list (a key
 * already there gets the new value), PUT replaces them all, DELETE removes the tags given (key
 * and value both matching). 404 when no definition has the name.
 */

import { pathParams, stringValue } from '../../http/contract.ts';
import type { RouteDef } from '../../http/router.ts';
import { tagRoutes } from '../../http/tag-routes.ts';
import type { DefinitionKind, MetadataService } from '../service.ts';

const PATHS: Record<DefinitionKind, { path: string; param: string; what: string }> = {
  workflow: { path: '/api/metadata/workflow/{name}/tags', param: 'name', what: 'a workflow definition' },
  task: { path: '/api/metadata/task/{taskName}/tags', param: 'taskName', what: 'a task definition' },
};

function tagRoutesOf(metadata: MetadataService, kind: DefinitionKind): RouteDef[] {
  const { path, param, what } = PATHS[kind];
  return tagRoutes({
    path,
    params: pathParams({ [param]: stringValue(`The name of ${what}`) }),
    param,
    what,
    permissions: { read: 'definitions:read', manage: 'definitions:manage' },
    add: 'POST',
    replaces: true,
    tags: (name) => metadata.tags(kind, name),
    change: (name, change) => metadata.changeTags(kind, name, change),
  });
}

export function definitionTagRoutes(metadata: MetadataService): RouteDef[] {
  return [...tagRoutesOf(metadata, 'workflow'), ...tagRoutesOf(metadata, 'task')];
}
