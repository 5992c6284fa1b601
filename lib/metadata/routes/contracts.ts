/**
 * Bodies of the definition routes. Their checks are Conductor's definition rules in lib/metadata
 * (one answer listing every problem, "The workflow definition is not valid: ..."), so the schemas
 * here describe and do not constrain: a JSON Schema check would answer first, in other words.
 */
import type { BodyContract } from '../../http/contract.ts';

export const WORKFLOW_DEF_BODY: BodyContract = {
  title: 'WorkflowDef',
  schema: { description: 'A workflow definition (Conductor WorkflowDef), checked by lib/metadata' },
};

export const WORKFLOW_DEFS_BODY: BodyContract = {
  title: 'WorkflowDef list',
  schema: { description: 'A JSON array of workflow definitions, checked by lib/metadata' },
};

export const TASK_DEFS_BODY: BodyContract = {
  title: 'TaskDef list',
  schema: { description: 'A JSON array of task definitions (Conductor TaskDef), checked by lib/metadata' },
};

export const TASK_DEF_BODY: BodyContract = {
  title: 'TaskDef',
  schema: { description: 'A task definition (Conductor TaskDef), checked by lib/metadata' },
};
