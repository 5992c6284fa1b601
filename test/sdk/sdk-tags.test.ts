/**
 * Tags through the official SDK (docs/conductor-compat.md §2.22), unmodified, against a real local
 * server: MetadataClient's workflow and task tags (add, get, set, delete), SchedulerClient's
 * schedule tags and EventClient's event handler tags, as the SDK's own integration suite drives
 * them; and the definitions, schedules and handlers read back with their tags. Which routes the
 * SDK called, and what they answered, is checked on the way.
 */
import {
  EventClient,
  MetadataClient,
  SchedulerClient,
  simpleTask,
  type Tag,
  workflow,
} from '@io-orkes/conductor-javascript';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { recordingFetch, sdkClient } from './sdk-client.ts';

// Node only: the SDK talks to a real URL with its own fetch.
const server = useTestServer({}, { transport: 'node' });
const recorder = recordingFetch();
let metadata: MetadataClient;
let scheduler: SchedulerClient;
let events: EventClient;

beforeAll(async () => {
  const client = await sdkClient(server.url, { fetch: recorder.fetch });
  metadata = new MetadataClient(client);
  scheduler = new SchedulerClient(client);
  events = new EventClient(client);
});

const pairs = (tags: Tag[] | undefined) => (tags ?? []).map((t) => `${t.key}=${t.value}`);
const callsTo = (suffix: string) =>
  recorder.calls.filter((c) => c.path.endsWith(suffix)).map((c) => `${c.method} ${c.status}`);

describe('MetadataClient tags', () => {
  it('adds, reads, replaces and deletes the tags of a workflow definition, shared by its versions', async () => {
    const name = uniqueName('sdk_tagged_wf');
    await metadata.registerWorkflowDef(workflow(name, [simpleTask('t', 'sdk_tag_task', {})]), true);
    await metadata.registerWorkflowDef({
      ...workflow(name, [simpleTask('t', 'sdk_tag_task', {})]),
      version: 2,
    });

    await metadata.addWorkflowTag({ key: 'env', type: 'METADATA', value: 'test' }, name);
    const tags = await metadata.getWorkflowTags(name);
    expect(tags).toEqual([{ key: 'env', type: 'METADATA', value: 'test' }]);

    await metadata.setWorkflowTags(
      [
        { key: 'team', type: 'METADATA', value: 'sdk' },
        { key: 'version', type: 'METADATA', value: 'v2' },
      ],
      name,
    );
    expect(pairs(await metadata.getWorkflowTags(name))).toEqual(['team=sdk', 'version=v2']);
    await metadata.deleteWorkflowTag({ key: 'version', type: 'METADATA', value: 'v2' }, name);
    expect(pairs(await metadata.getWorkflowTags(name))).toEqual(['team=sdk']);

    // Every version is read back, and listed, with the name's tags.
    const v1 = (await metadata.getWorkflowDef(name, 1)) as { tags?: Tag[] };
    expect(pairs(v1.tags)).toEqual(['team=sdk']);
    const listed = (await metadata.getAllWorkflowDefs()).filter((d) => d.name === name) as { tags?: Tag[] }[];
    expect(listed.map((d) => pairs(d.tags))).toEqual([['team=sdk'], ['team=sdk']]);

    expect(callsTo(`/api/metadata/workflow/${name}/tags`)).toEqual([
      'POST 200',
      'GET 200',
      'PUT 200',
      'GET 200',
      'DELETE 200',
      'GET 200',
    ]);
  });

  it('adds, reads, replaces and deletes the tags of a task definition', async () => {
    const taskName = uniqueName('sdk_tagged_task');
    await metadata.registerTasks([{ name: taskName, timeoutSeconds: 0, totalTimeoutSeconds: 0 }]);

    await metadata.addTaskTag({ key: 'priority', type: 'METADATA', value: 'high' }, taskName);
    expect(pairs(await metadata.getTaskTags(taskName))).toEqual(['priority=high']);
    await metadata.setTaskTags(
      [
        { key: 'category', type: 'METADATA', value: 'processing' },
        { key: 'sla', type: 'METADATA', value: 'medium' },
      ],
      taskName,
    );
    expect(pairs(await metadata.getTaskTags(taskName))).toEqual(['category=processing', 'sla=medium']);
    await metadata.deleteTaskTag({ key: 'sla', type: 'METADATA', value: 'medium' }, taskName);
    expect(pairs(await metadata.getTaskTags(taskName))).toEqual(['category=processing']);

    expect(pairs(((await metadata.getTask(taskName)) as { tags?: Tag[] }).tags)).toEqual([
      'category=processing',
    ]);
    // A task definition updated without tags keeps them.
    await metadata.updateTask({ name: taskName, retryCount: 1, timeoutSeconds: 0, totalTimeoutSeconds: 0 });
    const all = (await metadata.getAllTaskDefs()) as { name: string; tags?: Tag[] }[];
    expect(pairs(all.find((d) => d.name === taskName)?.tags)).toEqual(['category=processing']);
  });

  it('rejects the tags of a definition that does not exist', async () => {
    await expect(metadata.getWorkflowTags(uniqueName('no_such_wf'))).rejects.toThrow();
    await expect(metadata.getTaskTags(uniqueName('no_such_task'))).rejects.toThrow();
    await expect(
      metadata.addTaskTag({ key: 'k', type: 'METADATA', value: 'v' }, uniqueName('no_such_task')),
    ).rejects.toThrow();
  });
});

describe('SchedulerClient tags', () => {
  it('sets, reads and deletes the tags of a schedule, and shows them on the schedule', async () => {
    const workflowName = uniqueName('sdk_tag_sched_wf');
    await metadata.registerWorkflowDef(workflow(workflowName, [simpleTask('t', 'sdk_tag_task', {})]), true);
    const name = uniqueName('sdk_tagged_schedule');
    await scheduler.saveSchedule({
      name,
      cronExpression: '0 0 0 1 1 *',
      startWorkflowRequest: { name: workflowName, version: 1 },
      paused: true,
    });

    await scheduler.setSchedulerTags(
      [
        { key: 'env', type: 'METADATA', value: 'test' },
        { key: 'frequency', type: 'METADATA', value: 'yearly' },
      ],
      name,
    );
    expect(pairs(await scheduler.getSchedulerTags(name))).toEqual(['env=test', 'frequency=yearly']);
    await scheduler.deleteSchedulerTags([{ key: 'frequency', type: 'METADATA', value: 'yearly' }], name);
    expect(pairs(await scheduler.getSchedulerTags(name))).toEqual(['env=test']);
    expect(pairs((await scheduler.getSchedule(name)).tags)).toEqual(['env=test']);

    // Saved again without tags, the schedule keeps them.
    await scheduler.saveSchedule({
      name,
      cronExpression: '0 0 0 1 1 *',
      startWorkflowRequest: { name: workflowName, version: 1 },
      paused: true,
      description: 'saved again',
    });
    expect(pairs((await scheduler.getSchedule(name)).tags)).toEqual(['env=test']);
    await expect(scheduler.getSchedulerTags(uniqueName('no_such_schedule'))).rejects.toThrow();
    expect(callsTo(`/api/scheduler/schedules/${name}/tags`)).toEqual([
      'PUT 200',
      'GET 200',
      'DELETE 200',
      'GET 200',
    ]);
  });
});

describe('EventClient tags', () => {
  const handler = (name: string, tags?: Tag[]) => ({
    name,
    event: `conductor:${uniqueName('sdk_tag_event')}`,
    active: true,
    actions: [{ action: 'start_workflow' as const, start_workflow: { name: 'some_wf' } }],
    ...(tags ? { tags } : {}),
  });

  it('keeps the tags a handler was created with, and puts, reads and deletes them', async () => {
    const name = uniqueName('sdk_tagged_handler');
    await events.addEventHandler(
      handler(name, [
        { key: 'test-tag-key-1', value: 'test-tag-value-1' },
        { key: 'environment', value: 'test' },
      ]),
    );
    const created = await events.getEventHandlerByName(name);
    expect(pairs(created.tags)).toEqual(['test-tag-key-1=test-tag-value-1', 'environment=test']);

    await events.putTagForEventHandler(name, [
      { key: 'test-key-2', value: 'test-value-2' },
      { key: 'environment', value: 'staging' },
    ]);
    expect(pairs(await events.getTagsForEventHandler(name))).toEqual([
      'test-tag-key-1=test-tag-value-1',
      'environment=staging',
      'test-key-2=test-value-2',
    ]);
    await events.deleteTagForEventHandler(name, { key: 'test-tag-key-1', value: 'test-tag-value-1' });
    await events.deleteTagsForEventHandler(name, [{ key: 'test-key-2', value: 'test-value-2' }]);
    expect(await events.getTagsForEventHandler(name)).toEqual([
      { key: 'environment', type: 'METADATA', value: 'staging' },
    ]);

    // An update without tags keeps them; the listing shows them.
    await events.updateEventHandler({ ...handler(name), event: created.event, description: 'updated' });
    const listed = (await events.getAllEventHandlers()).find((h) => h.name === name);
    expect(listed?.description).toBe('updated');
    expect(pairs(listed?.tags)).toEqual(['environment=staging']);
    await expect(events.getTagsForEventHandler(uniqueName('no_such_handler'))).rejects.toThrow();
    expect(callsTo(`/api/event/${name}/tags`)).toEqual([
      'PUT 200',
      'GET 200',
      'DELETE 200',
      'DELETE 200',
      'GET 200',
    ]);
  });
});
