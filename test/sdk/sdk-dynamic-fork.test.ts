/**
 * FORK_JOIN_DYNAMIC branches built with the official JavaScript SDK's builders (`dynamicForkTask`,
 * `inlineTask`, `joinTask`), registered and run through the SDK unmodified against a real local
 * server, as the SDK's own integration suite does: a branch keeps its own inputParameters (the
 * INLINE's expression) with the fork's map for it merged over them, and a workflow output naming a
 * branch's reference reads that task's output (docs/conductor-compat.md §5.8).
 */
import {
  dynamicForkTask,
  inlineTask,
  joinTask,
  MetadataClient,
  WorkflowExecutor,
  workflow,
} from '@io-orkes/conductor-javascript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ref, uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { eventually } from '../http/execution-api.ts';
import { type SdkClient, sdkClient } from './sdk-client.ts';

const server = useTestServer({}, { transport: 'node' });
let client: SdkClient;

beforeAll(async () => {
  client = await sdkClient(server.url);
});

/** Registers the workflow, starts it with the input and waits until it is over. */
async function runToEnd(def: ReturnType<typeof workflow>, input: Record<string, unknown>) {
  await new MetadataClient(client).registerWorkflowDef(def, true);
  const executor = new WorkflowExecutor(client);
  const id = await executor.startWorkflow({ name: def.name, version: 1, input });
  return eventually(async () => {
    const run = await executor.getWorkflow(id, true);
    if (run.status === 'RUNNING') throw new Error(`run ${id} is still RUNNING`);
    return run;
  }, 15_000);
}

describe('FORK_JOIN_DYNAMIC through the SDK', () => {
  it("runs an INLINE branch whose expression sits in its own inputParameters, the fork's map merged in", async () => {
    const def = {
      ...workflow(uniqueName('sdk_dyn_inline'), [
        dynamicForkTask(
          'fan',
          [inlineTask('calc', '(function () { return $.n * 2; })()')],
          ref('workflow.input.forkInputs'),
        ),
        joinTask('gather', []),
      ]),
      outputParameters: { joined: ref('gather.output') },
    };
    const run = await runToEnd(def, { forkInputs: { calc: { n: 21 } } });
    expect(run.status).toBe('COMPLETED');
    expect(run.output).toEqual({ joined: { calc: { result: 42 } } });
    const calc = run.tasks?.find((t) => t.referenceTaskName === 'calc');
    expect(calc?.inputData).toMatchObject({ evaluatorType: 'javascript', n: 21 });
  });

  it("resolves a workflow output naming a branch's reference to that task's output", async () => {
    const def = {
      ...workflow(uniqueName('sdk_dyn_named'), [
        dynamicForkTask(
          'fan',
          [
            inlineTask('double', '(function () { return $.n * 2; })()'),
            inlineTask('square', '(function () { return $.n * $.n; })()'),
          ],
          ref('workflow.input.forkInputs'),
        ),
        joinTask('gather', []),
      ]),
      outputParameters: { doubled: ref('double.output.result'), squared: ref('square.output.result') },
    };
    const run = await runToEnd(def, { forkInputs: { double: { n: 5 }, square: { n: 7 } } });
    expect(run.status).toBe('COMPLETED');
    expect(run.output).toEqual({ doubled: 10, squared: 49 });
  });
});
