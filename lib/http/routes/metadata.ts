/**
 * /api/metadata: workflow and task definitions (reference/conductor.md §1.2), one file per
 * sub-resource under routes/metadata/.
 */
import type { MetadataService } from '../../metadata/service.ts';
import type { RouteDef } from '../router.ts';
import { taskDefRoutes } from './metadata/task-defs.ts';
import { workflowDefRoutes } from './metadata/workflow-defs.ts';

export function metadataRoutes(metadata: MetadataService): RouteDef[] {
  return [...workflowDefRoutes(metadata), ...taskDefRoutes(metadata)];
}
