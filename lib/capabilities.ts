/**
 * The one list of capabilities, read by the local host, the Lambda host and the CDK stack, and the
 * folds over it that they share: every table, every store, every periodic job and consumer. A new
 * capability is a folder with its capability.ts and one line in CAPABILITIES; its tables, stores,
 * engine hooks, background work, routes, function and grants follow from the descriptor
 * (lib/capability-contract.ts).
 */
import { applicationsCapability } from './applications/capability.ts';
import type { Capability, Intersection, StoresOf } from './capability-contract.ts';
import { gatedOn, type PropertyName } from './config/properties.ts';
import type { ServiceConfig } from './config/service-config.ts';
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
 * tokens, the tables every capability asks of functions that check them (Capability.authGrants;
 * a table the group already has is not granted twice).
 */
export function routeGroupGrants(capability: AnyCapability, secured: boolean): FunctionGrants {
  if (!secured) return capability.grants;
  const tables = [...capability.grants.tables];
  for (const grant of ALL.flatMap((c) => c.authGrants ?? [])) {
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

/** A capability by name. */
export function capabilityNamed(name: string): AnyCapability {
  const capability = ALL.find((c) => c.name === name);
  if (capability === undefined) throw new Error(`No capability '${name}'`);
  return capability;
}

/** The capabilities that exist with this configuration: ungated ones, and gated ones whose gate is on. */
export function enabledCapabilities(config: ServiceConfig): AnyCapability[] {
  return ALL.filter((capability) => gatedOn(capability, (gate) => config.gate(gate)));
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

/** Each job's and consumer's capability, by the work's name. */
const OWNERS: ReadonlyMap<string, AnyCapability> = new Map(
  ALL.flatMap((capability) =>
    [...(capability.jobs ?? []), ...(capability.consumers ?? [])].map(
      (work) => [work.name, capability] as const,
    ),
  ),
);

/** The capability a job or consumer belongs to: its deps include what that capability provides. */
export function ownerOf(work: { name: string }): AnyCapability {
  const owner = OWNERS.get(work.name);
  if (owner === undefined) throw new Error(`No capability declares '${work.name}'`);
  return owner;
}

/** The property that tells a function the URL of the queue of this name (its consumer declares it). */
export function queueUrlProperty(name: string): PropertyName {
  const consumer = CONSUMERS.find((c) => c.queue.name === name);
  if (consumer === undefined) throw new Error(`No consumer declares a '${name}' queue`);
  return consumer.queue.urlProperty;
}

/** Every queue's URL property, by queue name. */
export function queueUrlProperties(): ReadonlyMap<string, PropertyName> {
  return new Map(CONSUMERS.map((c) => [c.queue.name, c.queue.urlProperty]));
}

export function streamConsumerNamed(name: string): StreamConsumer {
  const consumer = STREAM_CONSUMERS.find((c) => c.name === name);
  if (consumer === undefined) throw new Error(`No stream consumer '${name}' in any capability`);
  return consumer;
}

export function jobNamed(name: string): PeriodicJob {
  const job = JOBS.find((j) => j.name === name);
  if (job === undefined) throw new Error(`No periodic job '${name}' in any capability`);
  return job;
}

export function consumerNamed(name: string): Consumer<unknown> {
  const consumer = CONSUMERS.find((c) => c.name === name);
  if (consumer === undefined) throw new Error(`No consumer '${name}' in any capability`);
  return consumer;
}
