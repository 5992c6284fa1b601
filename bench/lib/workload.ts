/**
 * The throughput benchmark's workload: a workflow of five SIMPLE tasks (`--tasks-per-workflow=N`
 * for a chain of N), each passing a value on to the next, registered over HTTP like a user would. With a payload (`--payload-bytes`), each task
 * also takes `data` (the workflow input's for the first, the previous task's output for the others),
 * and the workers answer an output `data` of about the same size (bench/lib/payload.ts).
 */
import { Args } from './args.ts';
import { OWNER, ref, simpleTask } from './definitions.ts';
import { expectStatus, type HttpClient } from './http-client.ts';

/** The workflow's name, whatever the chain's length (five tasks by default). */
export const WORKFLOW_NAME = 'bench_five_simple';
export const TASKS_PER_WORKFLOW = new Args().int('tasks-per-workflow', 5, 1);
export const LAST_REF = `t${TASKS_PER_WORKFLOW}`;

/** Task type of each task of the chain: `distinct` types in turn, or one shared by all. */
export function taskTypesOf(distinct: number): string[] {
  return Array.from({ length: TASKS_PER_WORKFLOW }, (_, i) =>
    distinct <= 1 ? 'bench_task' : `bench_task_${(i % distinct) + 1}`,
  );
}

export async function registerWorkload(
  client: HttpClient,
  distinctTypes: number,
  shape: { payloadBytes?: number; responseTimeoutSeconds?: number } = {},
): Promise<string[]> {
  const { payloadBytes = 0, responseTimeoutSeconds } = shape;
  const types = taskTypesOf(distinctTypes);
  const unique = [...new Set(types)];
  expectStatus(
    await client.post(
      '/api/metadata/taskdefs',
      // Conductor's defaults otherwise: responseTimeoutSeconds 3600 (unless given), no timeoutSeconds.
      unique.map((name) => ({ name, retryCount: 0, ownerEmail: OWNER, responseTimeoutSeconds })),
    ),
    'register task definitions',
  );
  const def = {
    name: WORKFLOW_NAME,
    version: 1,
    schemaVersion: 2,
    ownerEmail: OWNER,
    tasks: types.map((name, i) =>
      simpleTask(name, `t${i + 1}`, {
        ...(i === 0 ? { n: ref('workflow.input.n') } : { previous: ref(`t${i}.output.ref`) }),
        ...(payloadBytes > 0 ? { data: ref(i === 0 ? 'workflow.input.data' : `t${i}.output.data`) } : {}),
      }),
    ),
    outputParameters: { last: ref(`${LAST_REF}.output.ref`) },
  };
  expectStatus(await client.post('/api/metadata/workflow', def), 'register workflow definition');
  return unique;
}
