/**
 * The one list of capabilities, read by the local host, the Lambda host and the CDK stack. A new
 * capability is a folder with its capability.ts and one line here; its tables, stores, routes,
 * function and grants follow from the descriptor (lib/capability.ts).
 */
import type { Intersection, StoresOf } from './capability.ts';
import { eventsCapability } from './events/capability.ts';
import { filesCapability } from './files/capability.ts';
import { messagesCapability } from './messages/capability.ts';
import { metadataCapability } from './metadata/capability.ts';
import { schedulerCapability } from './scheduler/capability.ts';
import { schemasCapability } from './schemas/capability.ts';
import type { TableSpec } from './store/dynamodb/tables.ts';
import { systemCapability } from './system/capability.ts';
import { tasksCapability } from './tasks/capability.ts';
import { workflowsCapability } from './workflows/capability.ts';

export const CAPABILITIES = [
  systemCapability,
  metadataCapability,
  workflowsCapability,
  tasksCapability,
  schemasCapability,
  schedulerCapability,
  messagesCapability,
  eventsCapability,
  filesCapability,
] as const;

export type CapabilityName = (typeof CAPABILITIES)[number]['name'];

/** Every table of every capability (gated or not: data outlives a switched-off feature). */
export const TABLES: readonly TableSpec[] = CAPABILITIES.flatMap((capability) => capability.tables);

/** The stores of every capability together: what `services.stores` holds. */
export type CapabilityStores = Intersection<StoresOf<(typeof CAPABILITIES)[number]>>;
