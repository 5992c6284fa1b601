// Tags over HTTP (both transports; docs/api.md "Tags"): the tag routes of workflow definitions,
// task definitions, schedules and event handlers, tags given with what they tag, and every way a
// request can be wrong, each answered with a 4xx error body naming the problem, never a 500.
import { describe, expect, it } from 'vitest';
import { MAX_TAGS } from '../../lib/model/tags.ts';
import { uniqueName } from '../helpers/fixtures.ts';
import { errorBody, useTestServer } from '../helpers/server.ts';
import { chainedWorkflow, ExecutionApi, expectEmptyOk, expectJson } from './execution-api.ts';

interface TagView {
  key: string;
  type: string;
  value: string;
}

describe('tags', () => {
  const server = useTestServer();
  const api = new ExecutionApi(server);
  const tags = async (path: string) => (await expectJson<TagView[]>(await api.get(path))).map((t) => t.key);

  const registerWorkflow = async (extra: Record<string, unknown> = {}) => {
    const name = uniqueName('tagged_wf');
    await api.registerWorkflow({ ...chainedWorkflow(name, uniqueName('a'), uniqueName('b')), ...extra });
    return name;
  };

  it('adds one tag or a list, replaces, deletes, and answers them with type METADATA', async () => {
    const name = await registerWorkflow();
    const path = `/api/metadata/workflow/${name}/tags`;
    expect(await expectJson(await api.get(path))).toEqual([]);
    await expectEmptyOk(await api.send('POST', path, { key: 'env', value: 'dev' }));
    await expectEmptyOk(
      await api.send('POST', path, [
        { key: 'team', value: 'core', type: 'METADATA' },
        { key: 'env', value: 'prod' },
      ]),
    );
    expect(await expectJson(await api.get(path))).toEqual([
      { key: 'env', type: 'METADATA', value: 'prod' },
      { key: 'team', type: 'METADATA', value: 'core' },
    ]);
    // Deleting needs key and value to match.
    await expectEmptyOk(await api.send('DELETE', path, { key: 'env', value: 'dev' }));
    expect(await tags(path)).toEqual(['env', 'team']);
    await expectEmptyOk(await api.send('DELETE', path, [{ key: 'env', value: 'prod' }]));
    expect(await tags(path)).toEqual(['team']);
    await expectEmptyOk(await api.send('PUT', path, [{ key: 'owner', value: 'ada' }]));
    expect(await tags(path)).toEqual(['owner']);
    await expectEmptyOk(await api.send('PUT', path, []));
    expect(await expectJson(await api.get(path))).toEqual([]);
    expect(await expectJson(await api.get(`/api/metadata/workflow/${name}`))).not.toHaveProperty('tags');
  });

  it('keeps the tags a definition is saved with, beside it: not in the definition a run executes', async () => {
    const name = await registerWorkflow({ tags: [{ key: 'env', value: 'test' }] });
    const def = await expectJson<{ tags?: TagView[] }>(await api.get(`/api/metadata/workflow/${name}`));
    expect(def.tags).toEqual([{ key: 'env', type: 'METADATA', value: 'test' }]);
    // Saved again without tags: kept; with overwriteTags false: added; with tags: replaced.
    await api.registerWorkflow(chainedWorkflow(name, 'x', 'y'));
    expect(await tags(`/api/metadata/workflow/${name}/tags`)).toEqual(['env']);
    await api.registerWorkflow({
      ...chainedWorkflow(name, 'x', 'y'),
      tags: [{ key: 'a', value: '1' }],
      overwriteTags: false,
    });
    expect(await tags(`/api/metadata/workflow/${name}/tags`)).toEqual(['env', 'a']);
    await expectJson(
      await api.send('PUT', '/api/metadata/workflow', [
        { ...chainedWorkflow(name, 'x', 'y'), tags: [{ key: 'b', value: '2' }] },
      ]),
    );
    expect(await tags(`/api/metadata/workflow/${name}/tags`)).toEqual(['b']);
    const listed = await expectJson<{ name: string; tags?: TagView[] }[]>(
      await api.get(`/api/metadata/workflow?name=${name}`),
    );
    expect(listed.map((d) => d.tags?.map((t) => t.key))).toEqual([['b']]);

    const id = await api.start(name);
    const run = await api.workflow(id);
    expect(run.workflowDefinition).not.toHaveProperty('tags');
    expect(run.workflowDefinition).not.toHaveProperty('overwriteTags');
  });

  it('does not let /workflow/{name}/{version} take /tags, nor /tags the versions', async () => {
    const name = await registerWorkflow();
    await expectEmptyOk(
      await api.send('POST', `/api/metadata/workflow/${name}/tags`, { key: 'k', value: 'v' }),
    );
    await expectEmptyOk(
      await api.send('DELETE', `/api/metadata/workflow/${name}/tags`, { key: 'k', value: 'v' }),
    );
    expect(
      (await expectJson<{ version: number }>(await api.get(`/api/metadata/workflow/${name}`))).version,
    ).toBe(1);
    await expectEmptyOk(await api.send('DELETE', `/api/metadata/workflow/${name}/1`));
    await errorBody(await api.get(`/api/metadata/workflow/${name}`), 404);
    // The name's tags went with its last version.
    await errorBody(await api.get(`/api/metadata/workflow/${name}/tags`), 404);
  });

  it('answers 404 for the tags of a definition, schedule or handler that does not exist', async () => {
    const missing = uniqueName('missing');
    const tag = { key: 'k', value: 'v' };
    for (const path of [
      `/api/metadata/workflow/${missing}/tags`,
      `/api/metadata/task/${missing}/tags`,
      `/api/scheduler/schedules/${missing}/tags`,
      `/api/event/${missing}/tags`,
    ]) {
      expect((await errorBody(await api.get(path), 404)).message).toContain(missing);
      await errorBody(await api.send('DELETE', path, [tag]), 404);
      await errorBody(await api.send('PUT', path, [tag]), 404);
    }
    await errorBody(await api.send('POST', `/api/metadata/workflow/${missing}/tags`, tag), 404);
    await errorBody(await api.send('POST', `/api/metadata/task/${missing}/tags`, tag), 404);
  });

  it('answers 400 naming the problem for a tag body that is not a tag or a list of them', async () => {
    const name = await registerWorkflow();
    const path = `/api/metadata/workflow/${name}/tags`;
    const cases: [unknown, RegExp][] = [
      [{ key: 'k' }, /^Invalid Tag: value: is required$/],
      [{ value: 'v' }, /key/],
      [{ key: '', value: 'v' }, /key/],
      [{ key: 7, value: 'v' }, /key/],
      [{ key: 'k', value: 'v', type: 'RATE_LIMIT' }, /type/],
      [[{ key: 'k', value: 'v' }, 'tag'], /Tag list: \[1\]/],
      [JSON.stringify('env:prod'), /must be a JSON object: Tag/],
      [{ key: 'k'.repeat(513), value: 'v' }, /key/],
    ];
    for (const [body, named] of cases) {
      const error = await errorBody(await api.send('POST', path, body), 400);
      expect(error.message).toMatch(named);
    }
    await errorBody(await api.send('PUT', path, undefined), 400);
    await errorBody(await api.send('PUT', path, '{not json'), 400);
    const many = Array.from({ length: MAX_TAGS + 1 }, (_, i) => ({ key: `k${i}`, value: 'v' }));
    await errorBody(await api.send('PUT', path, many), 400);
    // A list within the limit that would leave too many tags is refused whole.
    await expectEmptyOk(await api.send('PUT', path, many.slice(0, MAX_TAGS)));
    expect(
      (await errorBody(await api.send('POST', path, { key: 'one_more', value: 'v' }), 400)).message,
    ).toContain(String(MAX_TAGS));
    expect(await tags(path)).toHaveLength(MAX_TAGS);
  });

  it('answers 400 for wrong tags given with a definition, a schedule or a handler, storing nothing', async () => {
    const name = uniqueName('bad_tags_wf');
    const workflow = await errorBody(
      await api.send('POST', '/api/metadata/workflow', {
        ...chainedWorkflow(name, 'x', 'y'),
        tags: [{ key: 'ok', value: 'v' }, { key: 'no value' }],
      }),
      400,
    );
    expect(workflow.validationErrors).toContainEqual(expect.objectContaining({ path: 'tags[1].value' }));
    await errorBody(await api.get(`/api/metadata/workflow/${name}`), 404);

    const task = await errorBody(
      await api.send('POST', '/api/metadata/taskdefs', [{ name: uniqueName('t'), tags: 'env' }]),
      400,
    );
    expect(task.validationErrors).toContainEqual(expect.objectContaining({ path: '[0].tags' }));

    const target = await registerWorkflow();
    const schedule = await errorBody(
      await api.send('POST', '/api/scheduler/schedules', {
        name: uniqueName('bad_tags_schedule'),
        cronExpression: '0 0 0 1 1 *',
        startWorkflowRequest: { name: target },
        tags: [{ key: 1, value: 'v' }],
      }),
      400,
    );
    expect(schedule.validationErrors).toContainEqual(expect.objectContaining({ path: 'tags[0].key' }));

    const handler = await errorBody(
      await api.send('POST', '/api/event', {
        name: uniqueName('bad_tags_handler'),
        event: 'conductor:x:y',
        actions: [{ action: 'start_workflow', start_workflow: { name: 'wf' } }],
        tags: { key: 'k', value: 'v' },
      }),
      400,
    );
    expect(handler.message).toContain('tags');
  });

  it('tags task definitions, schedules and handlers, and shows them with each', async () => {
    const taskName = uniqueName('tagged_task');
    await api.registerTaskDefs([{ name: taskName, tags: [{ key: 'tier', value: 'gold' }] }]);
    expect(await tags(`/api/metadata/task/${taskName}/tags`)).toEqual(['tier']);
    const listed = await expectJson<{ name: string; tags?: TagView[] }[]>(
      await api.get('/api/metadata/taskdefs'),
    );
    expect(listed.find((d) => d.name === taskName)?.tags).toEqual([
      { key: 'tier', type: 'METADATA', value: 'gold' },
    ]);
    // The run's snapshot of the task definition holds none.
    const wf = uniqueName('wf_with_tagged_task');
    await api.registerWorkflow({ name: wf, tasks: [{ name: taskName, taskReferenceName: 't' }] });
    const run = await api.workflow(await api.start(wf));
    expect(JSON.stringify(run.workflowDefinition)).not.toContain('gold');

    const target = await registerWorkflow();
    const scheduleName = uniqueName('tagged_schedule');
    const saved = await expectJson<{ tags?: TagView[] }>(
      await api.send('POST', '/api/scheduler/schedules', {
        name: scheduleName,
        cronExpression: '0 0 0 1 1 *',
        startWorkflowRequest: { name: target },
        paused: true,
        tags: [{ key: 'env', value: 'test' }],
      }),
    );
    expect(saved.tags).toEqual([{ key: 'env', type: 'METADATA', value: 'test' }]);
    await expectEmptyOk(
      await api.send('PUT', `/api/scheduler/schedules/${scheduleName}/tags`, { key: 'b', value: '2' }),
    );
    expect(await tags(`/api/scheduler/schedules/${scheduleName}/tags`)).toEqual(['env', 'b']);
    const schedules = await expectJson<{ name: string; tags?: TagView[] }[]>(
      await api.get(`/api/scheduler/schedules?workflowName=${target}`),
    );
    expect(schedules.map((s) => s.tags?.map((t) => t.key))).toEqual([['env', 'b']]);

    const handlerName = uniqueName('tagged_handler');
    const event = `conductor:${uniqueName('tagged_event')}`;
    await expectEmptyOk(
      await api.send('POST', '/api/event', {
        name: handlerName,
        event,
        active: true,
        actions: [{ action: 'start_workflow', start_workflow: { name: 'wf' } }],
        tags: [{ key: 'env', value: 'test' }],
      }),
    );
    const byEvent = await expectJson<{ tags?: TagView[] }[]>(
      await api.get(`/api/event/${encodeURIComponent(event)}`),
    );
    expect(byEvent.map((h) => h.tags?.map((t) => t.key))).toEqual([['env']]);
    await expectEmptyOk(
      await api.send('DELETE', `/api/event/${handlerName}/tags`, [{ key: 'env', value: 'test' }]),
    );
    expect(await expectJson(await api.get(`/api/event/handler/${handlerName}`))).not.toHaveProperty('tags');
  });
});
