/**
 * /api/metadata: workflow and task definitions and their tags (docs/conductor-compat.md §1.2), one
 * file per sub-resource in this folder.
 */

import type { RouteDef } from '../../http/router.ts';
import type { MetadataService } from '../service.ts';
import { definitionTagRoutes } from './tags.ts';
import { taskDefRoutes } from './task-defs.ts';
import { workflowDefRoutes } from './workflow-defs.ts';

export function metadataRoutes(metadata: MetadataService): RouteDef[] {
  return [...workflowDefRoutes(metadata), ...taskDefRoutes(metadata), ...definitionTagRoutes(metadata)];
}
