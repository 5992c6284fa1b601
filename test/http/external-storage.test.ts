/**
 * The ExternalStorageLocation routes (GET /api/workflow/externalstoragelocation, the task variant
 * and both aliases) and the local payload route their URIs point at; a start whose input was
 * uploaded through a WRITE location; the 4xx answers for every bad input.
 */
import { describe, expect, it } from 'vitest';
import { uniqueName, worker } from '../helpers/fixtures.ts';
import { errorBody, pathsOf, useTestServer } from '../helpers/server.ts';
import { ExecutionApi, expectEmptyOk, expectJson, expectText } from './execution-api.ts';

const server = useTestServer();
const api = new ExecutionApi(server);

interface Location {
  uri: string;
  path: string;
}

const UPLOAD_PATH = /^(workflow|task)-(input|output)\/[0-9a-f-]{36}\.json$/;

const location = async (base: string, query: string): Promise<Location> =>
  expectJson<Location>(await api.get(`${base}?${query}`));

const put = (uri: string, body: string) =>
  server.fetch(uri, { method: 'PUT', headers: { 'content-type': 'application/json' }, body });

describe.each([
  '/api/workflow/externalstoragelocation',
  '/api/workflow/external-storage-location',
  '/api/tasks/externalstoragelocation',
  '/api/tasks/external-storage-location',
])('GET %s', (base) => {
  it('hands out a fresh upload location for WRITE, and the URI round-trips a PUT then a GET', async () => {
    const write = await location(base, 'operation=WRITE&payloadType=TASK_OUTPUT');
    expect(write.path).toMatch(UPLOAD_PATH);
    expect(write.path.startsWith('task-output/')).toBe(true);
    expect(write.uri).toBe(`${server.url}/api/workflow/payloads/${write.path}`);
    const again = await location(base, 'operation=WRITE&payloadType=TASK_OUTPUT&path=');
    expect(again.path).not.toBe(write.path);

    await expectEmptyOk(await put(write.uri, '{"answer":42}'));
    const read = await location(base, `operation=READ&payloadType=TASK_OUTPUT&path=${write.path}`);
    expect(read).toEqual({ uri: write.uri, path: write.path });
    expect(await expectJson(await server.fetch(read.uri))).toEqual({ answer: 42 });
    // A client may retry its upload at the location it was given.
    const retry = await location(base, `operation=WRITE&payloadType=TASK_OUTPUT&path=${write.path}`);
    expect(retry.path).toBe(write.path);
  });

  it.each([
    ['an unknown operation', 'operation=DELETE&payloadType=TASK_OUTPUT', 'operation'],
    ['an unknown payloadType', 'operation=WRITE&payloadType=TASK_LOGS', 'payloadType'],
    ['no operation', 'payloadType=TASK_OUTPUT', 'operation'],
    ['no payloadType', 'operation=READ&path=x', 'payloadType'],
  ])('answers 400 for %s', async (_case, query, field) => {
    const body = await errorBody(await api.get(`${base}?${query}`), 400);
    expect(pathsOf(body).join(' ') + body.message).toContain(field);
  });

  it.each([
    ['READ without a path', 'operation=READ&payloadType=WORKFLOW_INPUT', 'path is required'],
    [
      'READ of a path the server never issued',
      'operation=READ&payloadType=WORKFLOW_INPUT&path=../../etc/passwd',
      'not a payload path',
    ],
    [
      'WRITE to a stored payload',
      `operation=WRITE&payloadType=TASK_OUTPUT&path=sha256/${'a'.repeat(64)}.json`,
      'cannot be written',
    ],
  ])('answers 400 for %s', async (_case, query, message) => {
    const body = await errorBody(await api.get(`${base}?${query}`), 400);
    expect(body.message).toContain(message);
  });
});

describe('the local payload route', () => {
  const payloads = `${'/api/workflow/payloads'}`;

  it('answers 404 for a payload never uploaded, and for a path that is no payload key', async () => {
    const fresh = await location(
      '/api/workflow/externalstoragelocation',
      'operation=WRITE&payloadType=WORKFLOW_INPUT',
    );
    await errorBody(await server.fetch(fresh.uri), 404);
    await errorBody(await api.get(`${payloads}/etc/passwd`), 404);
    await errorBody(await api.get(`${payloads}/sha256/..%2F..%2Fpackage.json`), 404);
    await errorBody(await put(`${server.url}${payloads}/tmp/x.json`, '{}'), 404);
  });

  it('answers 400 for a body that is malformed JSON, or JSON but no object', async () => {
    const fresh = await location(
      '/api/workflow/externalstoragelocation',
      'operation=WRITE&payloadType=WORKFLOW_INPUT',
    );
    await errorBody(await put(fresh.uri, '{"a":'), 400);
    await errorBody(await put(fresh.uri, '[1,2]'), 400);
    await errorBody(await put(fresh.uri, ''), 400);
  });

  it('refuses (403) a write to a payload the service stored', async () => {
    const body = await errorBody(
      await put(`${server.url}${payloads}/sha256/${'b'.repeat(64)}.json`, '{}'),
      403,
    );
    expect(body.message).toContain('cannot be written');
  });
});

describe('a start with externalInputPayloadStoragePath', () => {
  it('reads its input from the uploaded payload', async () => {
    const name = uniqueName('ext_in');
    await api.registerWorkflow({ name, version: 1, tasks: [worker('only', { name: uniqueName('t') })] });
    const upload = await location(
      '/api/workflow/externalstoragelocation',
      'operation=WRITE&payloadType=WORKFLOW_INPUT',
    );
    const input = { text: 'y'.repeat(100_000), n: 1 };
    await expectEmptyOk(await put(upload.uri, JSON.stringify(input)));
    const id = await expectText(
      await api.send('POST', '/api/workflow', {
        name,
        input: null,
        externalInputPayloadStoragePath: upload.path,
      }),
    );
    const run = await api.workflow(id);
    expect(run.input).toEqual(input);
    expect(run.externalInputPayloadStoragePath).toMatch(/^sha256\//);
  });

  it.each([
    ['a path the server never issued', 'my/own/path.json', 'not a payload path'],
    [
      'an upload location nothing was written to',
      'workflow-input/00000000-0000-4000-8000-000000000000.json',
      'no payload stored',
    ],
  ])('answers 400 for %s', async (_case, path, message) => {
    const name = uniqueName('ext_bad');
    await api.registerWorkflow({ name, version: 1, tasks: [worker('only', { name: uniqueName('t') })] });
    const body = await errorBody(
      await api.send('POST', '/api/workflow', { name, externalInputPayloadStoragePath: path }),
      400,
    );
    expect(body.message).toContain(message);
  });
});

describe('a task update with externalOutputPayloadStoragePath', () => {
  it('answers 400 when nothing was uploaded there, and the task stays open', async () => {
    const name = uniqueName('ext_out');
    const type = uniqueName('t');
    await api.registerWorkflow({ name, version: 1, tasks: [worker('only', { name: type })] });
    const id = await api.start(name, {});
    const task = await api.pollEventually(type);
    const body = await errorBody(
      await api.send('POST', '/api/tasks', {
        taskId: task.taskId,
        workflowInstanceId: id,
        status: 'COMPLETED',
        externalOutputPayloadStoragePath: 'task-output/00000000-0000-4000-8000-000000000000.json',
      }),
      400,
    );
    expect(body.message).toContain('no payload stored');
    expect((await api.workflow(id)).tasks[0]?.status).toBe('IN_PROGRESS');
  });
});
