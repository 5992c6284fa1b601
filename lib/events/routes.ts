/**
 * /api/event (docs/conductor-compat.md §1.3, as the SDK's EventClient calls it): event handler create (one
 * object, or the array of one the official SDK sends), update, list, list by event (`activeOnly`,
 * true by default as in Conductor), get by name (Orkes) and delete. Names are unique: a second
 * create is 409, an update or delete of an absent name 404.
 *
 * Executions (Orkes routes the official UI's event monitor and the SDK call):
 * `GET /api/event/execution` answers `{results: [{name, event, active, numberOfActions,
 * numberOfMessages}], totalHits}` (the SDK's getAllActiveEventHandlers), and
 * `GET /api/event/execution/{name}?from=` the handler's executions, newest first: with `from` (ms,
 * the UI's 5, 15 or 30 minutes) those created within the last `from` milliseconds, without it (or
 * with 0 or less: the UI's "All time" is -1) every unexpired one, at most EXECUTION_LIMIT. Each
 * carries `payload`, `statusDescription` and `fullMessagePayload` (executionView), which the UI's
 * event monitor reads on every row.
 *
 * Incoming events (Orkes' `POST /api/event/handleIncomingEvent`, the SDK's handleIncomingEvent):
 * the body is the event's payload and its `event` field names the event handlers match
 * (`conductor:orders`, `sqs:orders`...). It is sent to the `events` queue as a message of its own
 * (a new id per request) and carried out by the event-handlers consumer exactly as an EVENT task's
 * `conductor:` message or an outside source's: every active handler of the event, each action once
 * per message, recorded as an execution. The answer (200, empty) comes once the queue holds it.
 *
 * Tags (Orkes; lib/model/tags.ts): `GET /api/event/{name}/tags` answers a handler's tags, PUT adds
 * one or a list (a key already there gets the new value), DELETE removes those given (key and
 * value matching); 404 for an unknown handler. Handlers are answered with their tags (`type:
 * METADATA`); a create or update carrying `tags` sets them, an update without keeps them.
 *
 * One const per route; the list at the end keeps the order the routes always had (the execution
 * routes before `/api/event/{event}`).
 */
import { randomUUID } from 'node:crypto';
import {
  type BodyContract,
  booleanValue,
  integerValue,
  paramsOf,
  pathParams,
  stringValue,
} from '../http/contract.ts';
import { emptyOk, json } from '../http/responses.ts';
import { type RouteDef, route } from '../http/router.ts';
import { tagRoutes } from '../http/tag-routes.ts';
import type { Clock } from '../model/clock.ts';
import { ConflictError, NotFoundError, ValidationError } from '../model/errors.ts';
import { applyTagChange, tagViews } from '../model/tags.ts';
import type { WorkQueue } from '../queue/ports.ts';
import type { EventMessage } from '../queue/work-queues.ts';
import { bodySchema } from '../validation/body-schema.ts';
import { type EventHandler, executionView, handlerView, parseHandler } from './model.ts';
import type { EventExecutionStore, EventHandlerStore, EventStores } from './ports.ts';

const HANDLER_BODY = { title: 'EventHandler', required: true, schema: { description: 'An EventHandler' } };
const MAX_HANDLERS_PER_CREATE = 100;
/** Executions GET /api/event/execution/{name} answers at most, newest first. */
const EXECUTION_LIMIT = 1000;
/** Executions one handler's message count reads at most (records expire with their TTL). */
const COUNT_LIMIT = 10_000;

const NAME_PARAMS = pathParams({ name: stringValue('Event handler name') });

const notFound = (name: string) => new NotFoundError(`Event handler ${name} not found`);

const executionSummaries = (handlers: EventHandlerStore, executions: EventExecutionStore, clock: Clock) =>
  route({
    method: 'GET',
    path: '/api/event/execution',
    permission: 'runs:read',
    summary: 'Event handlers with the number of messages they handled',
    responds: 'application/json',
    handler: async () => {
      const now = clock.now();
      const results = await Promise.all(
        (await handlers.list()).map(async (h) => {
          const recorded = await executions.list(h.name, now, { limit: COUNT_LIMIT });
          return {
            name: h.name,
            event: h.event,
            active: h.active === true,
            numberOfActions: h.actions.length,
            numberOfMessages: new Set(recorded.map((e) => e.messageId)).size,
          };
        }),
      );
      return json({ results, totalHits: results.length });
    },
  });

const handlerExecutions = (handlers: EventHandlerStore, executions: EventExecutionStore, clock: Clock) =>
  route({
    method: 'GET',
    path: '/api/event/execution/{name}',
    permission: 'runs:read',
    summary: 'The executions of one event handler, newest first',
    request: {
      params: NAME_PARAMS,
      query: paramsOf({
        from: integerValue(
          {},
          'Only executions created within the last this many milliseconds (absent, 0 or less: all)',
        ),
      }),
    },
    responds: 'application/json',
    handler: async (ctx) => {
      const name = ctx.param('name');
      if (!(await handlers.get(name))) throw notFound(name);
      const now = clock.now();
      const within = ctx.query.int('from', 0);
      const found = await executions.list(name, now, {
        ...(within > 0 ? { from: now - within } : {}),
        limit: EXECUTION_LIMIT,
      });
      return json(found.map(executionView));
    },
  });

const addHandlers = (store: EventHandlerStore) =>
  route({
    method: 'POST',
    path: '/api/event',
    permission: 'definitions:manage',
    summary: 'Add event handlers (one object, or an array)',
    request: {
      body: {
        ...HANDLER_BODY,
        schema: {
          anyOf: [{ type: 'object' }, { type: 'array' }],
          description: 'An EventHandler or an array of them',
        },
      },
    },
    handler: async (ctx) => {
      const body = await ctx.json();
      const list = Array.isArray(body) ? body : [body];
      if (list.length === 0 || list.length > MAX_HANDLERS_PER_CREATE)
        throw new ValidationError(`Give 1 to ${MAX_HANDLERS_PER_CREATE} event handlers`);
      const handlers: EventHandler[] = list.map(parseHandler);
      for (const handler of handlers) {
        if (!(await store.create(handler)))
          throw new ConflictError(`Event handler with name ${handler.name} already exists!`);
      }
      return emptyOk();
    },
  });

const updateHandler = (store: EventHandlerStore) =>
  route({
    method: 'PUT',
    path: '/api/event',
    permission: 'definitions:manage',
    summary: 'Update an event handler',
    request: { body: { ...HANDLER_BODY, schema: { type: 'object', description: 'An EventHandler' } } },
    handler: async (ctx) => {
      const handler = parseHandler(await ctx.json());
      if (!(await store.update(handler))) throw notFound(handler.name);
      return emptyOk();
    },
  });

const listHandlers = (store: EventHandlerStore) =>
  route({
    method: 'GET',
    path: '/api/event',
    permission: 'definitions:read',
    summary: 'List every event handler',
    responds: 'application/json',
    handler: async () => json((await store.list()).map(handlerView)),
  });

const getHandler = (store: EventHandlerStore) =>
  route({
    method: 'GET',
    path: '/api/event/handler/{name}',
    permission: 'definitions:read',
    summary: 'Get an event handler by name',
    request: { params: NAME_PARAMS },
    responds: 'application/json',
    handler: async (ctx) => {
      const handler = await store.get(ctx.param('name'));
      if (!handler) throw notFound(ctx.param('name'));
      return json(handlerView(handler));
    },
  });

const handlersOfEvent = (store: EventHandlerStore) =>
  route({
    method: 'GET',
    path: '/api/event/{event}',
    permission: 'definitions:read',
    summary: 'List the event handlers of one event',
    request: {
      params: pathParams({ event: stringValue('Event, e.g. sqs:orders') }),
      query: paramsOf({ activeOnly: booleanValue('Only active handlers (default true)') }),
    },
    responds: 'application/json',
    handler: async (ctx) => {
      const event = ctx.param('event');
      const activeOnly = ctx.query.bool('activeOnly', true);
      const all = await store.list();
      return json(
        all.filter((h) => h.event === event && (!activeOnly || h.active === true)).map(handlerView),
      );
    },
  });

const deleteHandler = (store: EventHandlerStore) =>
  route({
    method: 'DELETE',
    path: '/api/event/{name}',
    permission: 'definitions:manage',
    summary: 'Delete an event handler',
    request: { params: NAME_PARAMS },
    handler: async (ctx) => {
      if (!(await store.remove(ctx.param('name')))) throw notFound(ctx.param('name'));
      return emptyOk();
    },
  });

const INCOMING_EVENT = bodySchema(
  'IncomingEvent',
  {
    type: 'object',
    required: ['event'],
    description: 'The event payload; its `event` field names the event the handlers match',
    properties: {
      event: {
        type: 'string',
        pattern: '\\S',
        description: 'the name of the event (a non-empty string), as handlers name it: <type>:<queue>',
      },
    },
  } as const,
  { messages: { event: { required: 'is required: the name of the event the handlers match' } } },
);
const INCOMING_EVENT_BODY: BodyContract = { ...INCOMING_EVENT, required: true };

const handleIncomingEvent = (queue: WorkQueue<EventMessage>) =>
  route({
    method: 'POST',
    path: '/api/event/handleIncomingEvent',
    permission: 'runs:manage',
    summary: 'Carry out the event handlers of an event: the body is its payload, its `event` field its name',
    request: { body: INCOMING_EVENT_BODY },
    handler: async (ctx) => {
      const payload = (await ctx.json()) as { event: string };
      await queue.send({ messageId: randomUUID(), event: payload.event, payload });
      return emptyOk();
    },
  });

const handlerTagRoutes = (store: EventHandlerStore): RouteDef[] =>
  tagRoutes({
    path: '/api/event/{name}/tags',
    params: NAME_PARAMS,
    param: 'name',
    what: 'an event handler',
    permissions: { read: 'definitions:read', manage: 'definitions:manage' },
    add: 'PUT',
    tags: async (name) => {
      const handler = await store.get(name);
      if (!handler) throw notFound(name);
      return tagViews(handler.tags);
    },
    change: async (name, change) => {
      if (!(await store.changeTags(name, (tags) => applyTagChange(tags, change)))) throw notFound(name);
    },
  });

export function eventRoutes(stores: EventStores, clock: Clock, events: WorkQueue<EventMessage>): RouteDef[] {
  const { eventHandlers: store, eventExecutions: executions } = stores;
  return [
    handleIncomingEvent(events),
    executionSummaries(store, executions, clock),
    handlerExecutions(store, executions, clock),
    addHandlers(store),
    updateHandler(store),
    listHandlers(store),
    getHandler(store),
    handlersOfEvent(store),
    deleteHandler(store),
    ...handlerTagRoutes(store),
  ];
}
