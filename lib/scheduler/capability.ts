/**
 * The scheduler capability (docs/api.md "Scheduler API"), behind `service.scheduler.enabled`: the
 * schedules API over its own table (schedules, execution records, the next run time indexed). A
 * save or resume dispatches the schedule's first fires at once; the tick (schedule-tick.ts)
 * dispatches the rest and the fire consumer (schedule-fire.ts) starts the workflows.
 */
import type { Capability, ServiceContext } from '../capability-contract.ts';
import { payloadKeysIn } from '../payloads/keys.ts';
import { DEFINITIONS_TABLE, tableName } from '../store/dynamodb/tables.ts';
import { ScheduleDispatcher } from './dispatcher.ts';
import type { ScheduleFireMessage } from './fire-message.ts';
import type { SchedulerStores } from './ports.ts';
import { retainingScheduleExecutions } from './retention.ts';
import { schedulerRoutes } from './routes/index.ts';
import { scheduleFire } from './schedule-fire.ts';
import { type SchedulerDeps, scheduleTick } from './schedule-tick.ts';
import { SchedulerService } from './service.ts';
import { DynamoScheduleStore } from './store/dynamodb.ts';
import { MemoryScheduleStore } from './store/memory.ts';
import { SCHEDULES_TABLE } from './tables.ts';

/** The dispatcher over a host's services: the same for the routes, the tick and the consumer. */
function dispatcherOf(services: ServiceContext<SchedulerStores>): ScheduleDispatcher {
  return new ScheduleDispatcher({
    schedules: services.stores.schedules,
    queue: services.workQueues.of<ScheduleFireMessage>('schedules'),
    // Asked for when a fire starts its run: the tick, which only sends fires, runs no engine.
    starter: {
      parseRequest: (body) => services.engine.starter.parseRequest(body),
      startRun: (request) => services.engine.starter.startRun(request),
    },
    clock: services.clock,
    logger: services.logger,
  });
}

export const schedulerCapability: Capability<SchedulerStores, SchedulerDeps> = {
  name: 'scheduler',
  gate: 'scheduler',
  tables: [SCHEDULES_TABLE],
  stores: {
    memory: () => ({ schedules: new MemoryScheduleStore() }),
    embedded: (source) => ({ schedules: new MemoryScheduleStore(source) }),
    dynamodb: (doc, tables) => ({
      schedules: new DynamoScheduleStore(doc, tableName(tables, SCHEDULES_TABLE)),
    }),
  },
  // Execution records are forgotten after their retention, for every reader.
  decorate: ({ schedules }, { config, clock }) => ({
    schedules: retainingScheduleExecutions(
      schedules,
      config.number('service.scheduler.execution-retention'),
      clock,
    ),
  }),
  provides: (services) => ({ scheduler: dispatcherOf(services) }),
  // A schedule's start request may name a payload (externalInputPayloadStoragePath): the payload
  // sweep keeps it while the schedule exists.
  payloadReferences: {
    tables: [SCHEDULES_TABLE],
    list: async ({ schedules }, visit) => {
      for (const schedule of await schedules.list()) {
        payloadKeysIn(JSON.stringify(schedule.startWorkflowRequest)).forEach(visit);
      }
    },
  },
  // The tick dispatches fires ahead; the consumer starts each workflow at its second.
  jobs: [scheduleTick],
  consumers: [scheduleFire],
  routes: (services, { scheduler }) => {
    const service = new SchedulerService({
      schedules: services.stores.schedules,
      dispatcher: scheduler,
      clock: services.clock,
      logger: services.logger,
      checkStartRequest: (body) => void services.engine.starter.parseRequest(body),
      workflowExists: async (name, version) =>
        (await services.metadata.findWorkflowDef(name, version)) !== undefined,
      previewZone: services.config.string('service.scheduler.schedulerTimeZone') ?? 'UTC',
    });
    return schedulerRoutes({
      service,
      schedules: services.stores.schedules,
      adminToken: services.config.string('service.scheduler.admin.token'),
    });
  },
  apiRoutes: ['ANY /api/scheduler/{proxy+}'],
  grants: {
    // Saves check the workflow is registered; the schedules table holds everything else.
    tables: [
      { table: SCHEDULES_TABLE, access: 'readWrite' },
      { table: DEFINITIONS_TABLE, access: 'read' },
    ],
    // A save, resume or admin requeue sends the schedule's first fires.
    sends: ['schedules'],
  },
};
