/**
 * A thin client for the execution API over a test server's transport, for tests that drive runs: register,
 * start, poll, report results and read runs back, checking the status and content type of each
 * successful answer on the way. Error answers are left to the tests (`errorBody`).
 */
import { expect } from 'vitest';
import type { ApiTask, ApiWorkflow } from '../../lib/model/api.ts';
import { type Json, ref, uniqueName } from '../helpers/fixtures.ts';
import { type Endpoint, jsonRequest } from '../helpers/server.ts';

export type { ApiTask, ApiWorkflow } from '../../lib/model/api.ts';

/** The names of a registered chainedWorkflow: the workflow and its two task types. */
export interface Chain {
  name: string;
  first: string;
  second: string;
}

export class ExecutionApi {
  constructor(readonly endpoint: Endpoint) {}

  /** The server's base URL; read when a test runs, since the server starts in beforeAll. */
  get url(): string {
    return this.endpoint.url;
  }

  send(method: string, path: string, body?: unknown): Promise<Response> {
    return this.endpoint.fetch(`${this.url}${path}`, jsonRequest(method, body));
  }

  get(path: string): Promise<Response> {
    return this.endpoint.fetch(`${this.url}${path}`);
  }

  /**
   * Registers a chainedWorkflow whose name and task types are new, so tests sharing a server never
   * meet; `extra` is merged into the definition (a version, say).
   */
  async registerChain(extra: Json = {}, name = uniqueName('wf')): Promise<Chain> {
    const chain = { name, first: uniqueName('first'), second: uniqueName('second') };
    await this.registerWorkflow({ ...chainedWorkflow(chain.name, chain.first, chain.second), ...extra });
    return chain;
  }

  async registerWorkflow(def: Json): Promise<void> {
    await expectOk(await this.send('POST', '/api/metadata/workflow?overwrite=true', def));
  }

  async registerTaskDefs(defs: Json[]): Promise<void> {
    await expectOk(await this.send('POST', '/api/metadata/taskdefs', defs));
  }

  /** POST /api/workflow/{name}: the new id, answered as text/plain. */
  async start(name: string, input: Json = {}, query = ''): Promise<string> {
    return expectText(await this.send('POST', `/api/workflow/${encodeURIComponent(name)}${query}`, input));
  }

  async workflow(id: string): Promise<ApiWorkflow> {
    return expectJson<ApiWorkflow>(await this.get(`/api/workflow/${id}`));
  }

  /** Single poll: the task, or undefined on the empty 204. */
  async poll(taskType: string, workerId = 'test-worker'): Promise<ApiTask | undefined> {
    const response = await this.get(`/api/tasks/poll/${encodeURIComponent(taskType)}?workerid=${workerId}`);
    if (response.status === 204) {
      expect(await response.text()).toBe('');
      return undefined;
    }
    return expectJson<ApiTask>(response);
  }

  /** Polls until a task of the type is handed out (decides run in the background after an update). */
  async pollEventually(taskType: string, workerId = 'test-worker'): Promise<ApiTask> {
    return eventually(async () => {
      const task = await this.poll(taskType, workerId);
      if (!task) throw new Error(`no ${taskType} task ready yet`);
      return task;
    });
  }

  /** POST /api/tasks: the task id as text/plain. */
  async update(task: ApiTask, status: string, outputData: Json = {}, extra: Json = {}): Promise<string> {
    return expectText(
      await this.send('POST', '/api/tasks', {
        taskId: task.taskId,
        workflowInstanceId: task.workflowInstanceId,
        status,
        outputData,
        ...extra,
      }),
    );
  }

  /** Reads the run until `pick` finds what the test waits for (a decide runs after each update). */
  async workflowUntil<T>(id: string, pick: (run: ApiWorkflow) => T | undefined): Promise<T> {
    return eventually(async () => {
      const found = pick(await this.workflow(id));
      if (found === undefined) throw new Error(`workflow ${id} has not reached the awaited state`);
      return found;
    });
  }

  async workflowEventually(id: string, status: string): Promise<ApiWorkflow> {
    return eventually(async () => {
      const run = await this.workflow(id);
      if (run.status !== status) throw new Error(`workflow ${id} is ${run.status}, waiting for ${status}`);
      return run;
    });
  }
}

export async function expectOk(response: Response): Promise<string> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return text;
}

export async function expectText(response: Response): Promise<string> {
  const text = await expectOk(response);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  return text;
}

export async function expectJson<T>(response: Response): Promise<T> {
  const text = await expectOk(response);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return JSON.parse(text) as T;
}

/** Conductor's answer for routes that return nothing: 200, an empty body, Content-Length 0. */
export async function expectEmptyOk(response: Response): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expect(text).toBe('');
  expect(response.headers.get('content-length')).toBe('0');
  expect(response.headers.get('content-type')).not.toBeNull();
}

/** 204 with nothing in the body. */
export async function expectNoContent(response: Response): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBe(204);
  expect(text).toBe('');
}

/**
 * Retries a check until it passes or the bound is hit. For work the server finishes in the
 * background (a decide after an update), never for letting clock time pass.
 */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

/** A two-task worker workflow where the second task's input is read from the first one's output. */
export function chainedWorkflow(name: string, first: string, second: string): Json {
  return {
    name,
    version: 1,
    tasks: [
      {
        name: first,
        taskReferenceName: 'first',
        type: 'SIMPLE',
        inputParameters: { x: ref('workflow.input.x') },
      },
      {
        name: second,
        taskReferenceName: 'second',
        type: 'SIMPLE',
        inputParameters: { fromFirst: ref('first.output.value') },
      },
    ],
    outputParameters: { result: ref('second.output.result') },
  };
}
