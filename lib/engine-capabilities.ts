/**
 * The capabilities the engine is made of: those whose stores it runs on (definitions; runs and
 * their task rows; worker queues, poll data and limits) and those that contribute to it (the
 * schema enforcer; PULL_WORKFLOW_MESSAGES and the removal of a run's message queue). A Lambda
 * function that runs the engine is made of these and its own capability (functions/), so no other
 * capability is in its bundle; the local host has every capability (lib/capabilities.ts).
 * test/runtime/capabilities.test.ts checks that no capability outside this list gives the engine
 * a store or a contribution.
 */
import type { AnyCapability } from './capabilities.ts';
import { messagesCapability } from './messages/capability.ts';
import { metadataCapability } from './metadata/capability.ts';
import { schemasCapability } from './schemas/capability.ts';
import { tasksCapability } from './tasks/capability.ts';
import { workflowsCapability } from './workflows/capability.ts';

export const ENGINE_CAPABILITIES: readonly AnyCapability[] = [
  metadataCapability,
  workflowsCapability,
  tasksCapability,
  schemasCapability,
  messagesCapability,
];
