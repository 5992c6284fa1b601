/**
 * The one list of capabilities, read by the local host and the CDK stack, and the folds over it
 * that they share: every table, every store, every periodic job and consumer. A new capability is
 * a folder with its capability.ts and one line in CAPABILITIES; its tables, stores, engine hooks,
 * background work, routes, function and grants follow from the descriptor
 * (lib/capability-contract.ts). A Lambda function is made of its own part of the list, which its
 * entry in functions/ names, so its bundle holds no other capability (lib/engine-capabilities.ts:
 * those the engine is made of; lib/catalog.ts: every table and queue as plain data).
 */
import { applicationsCapability } from './applications/capability.ts';
import { AUTH_CAPABILITIES } from './auth-capabilities.ts';
import type { Capability, Intersection, StoresOf } from './capability-contract.ts';
import type { FunctionGrants, TableGrant } from './deployment.ts';
import { eventsCapability } from './events/capability.ts';
import { filesCapability } from './files/capability.ts';
import type { Consumer, PeriodicJob, StreamConsumer } from './jobs/types.ts';
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
  applicationsCapability,
] as const;

/** A capability of the list, its own types forgotten: what the folds work with. */
export type AnyCapability = Capability<object, object>;

const ALL: readonly AnyCapability[] = CAPABILITIES;

export type CapabilityName = (typeof CAPABILITIES)[number]['name'];

/** Every table of every capability (gated or not: data outlives a switched-off feature). */
export const TABLES: readonly TableSpec[] = ALL.flatMap((capability) => capability.tables);

/** The stores of every capability together: what `services.stores` holds. */
export type CapabilityStores = Intersection<StoresOf<(typeof CAPABILITIES)[number]>>;

/**
 * The tables a function is granted: its own, plus what each capability asks of functions that use
 * the engine as it does (`decides` includes `starts`).
 */
export function grantedTables(grants: FunctionGrants): readonly TableGrant[] {
  const uses =
    grants.engine === undefined
      ? ([] as const)
      : grants.engine === 'decides'
        ? (['starts', 'decides'] as const)
        : (['starts'] as const);
  const added = ALL.flatMap((capability) => uses.flatMap((use) => capability.engineGrants?.[use] ?? []));
  // The payload sweep reads every table a capability lists payload references from.
  const references =
    grants.payloads === 'sweep'
      ? PAYLOAD_REFERENCE_TABLES.filter(
          (table) => !grants.tables.some((grant) => grant.table.id === table.id),
        ).map((table) => ({ table, access: 'read' as const }))
      : [];
  if (added.length === 0 && references.length === 0) return grants.tables;
  return [...grants.tables, ...added, ...references];
}

/**
 * What a route group's function is granted: its capability's own grants and, when the API requires
 * tokens, the tables the capabilities that check them ask for (AUTH_CAPABILITIES' authGrants;
 * a table the group already has is not granted twice).
 */
export function routeGroupGrants(capability: AnyCapability, secured: boolean): FunctionGrants {
  if (!secured) return capability.grants;
  const tables = [...capability.grants.tables];
  for (const grant of AUTH_CAPABILITIES.flatMap((c) => c.authGrants ?? [])) {
    if (!tables.some((t) => t.table.id === grant.table.id)) tables.push(grant);
  }
  return tables.length === capability.grants.tables.length
    ? capability.grants
    : { ...capability.grants, tables };
}

/** The tables that may name large payloads (Capability.payloadReferences), every capability's. */
export const PAYLOAD_REFERENCE_TABLES: readonly TableSpec[] = ALL.flatMap(
  (capability) => capability.payloadReferences?.tables ?? [],
);

/** Every capability, as the folds see it. */
export function capabilities(): readonly AnyCapability[] {
  return ALL;
}

/** Every periodic job (locally on intervals, on AWS from EventBridge rules). */
export const JOBS: readonly PeriodicJob[] = ALL.flatMap((capability) => capability.jobs ?? []);

// Each consumer's message type is its own; decode() is what turns a body into it.
export const CONSUMERS: readonly Consumer<unknown>[] = ALL.flatMap(
  (capability) => capability.consumers ?? [],
);

/** Consumers of a table's change stream; deployed only where they have work (deployedWith). */
export const STREAM_CONSUMERS: readonly StreamConsumer[] = ALL.flatMap(
  (capability) => capability.streamConsumers ?? [],
);
