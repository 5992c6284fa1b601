/**
 * FORK_JOIN_DYNAMIC branches built with the official JavaScript SDK's builders (`dynamicForkTask`,
 * `inlineTask`, `switchTask`, `doWhileTask`, `forkTask`, `joinTask`), registered and run through the
 * SDK unmodified against a real local server, as the SDK's own integration suite does: a branch
 * keeps its own inputParameters (the INLINE's expression) with the fork's map for it merged over
 * them, a workflow output naming a branch's reference reads that task's output, and SWITCH and
 * DO_WHILE branches run with the tasks inside them (docs/conductor-compat.md §5.8).
 */
import {
  doWhileTask,
  dynamicForkTask,
  forkTask,
  inlineTask,
  joinTask,
  MetadataClient,
  switchTask,
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

  it('runs SWITCH and DO_WHILE branches with the tasks inside them, and the JOIN waits for them', async () => {
    const def = {
      ...workflow(uniqueName('sdk_dyn_containers'), [
        dynamicForkTask(
          'fan',
          [
            switchTask('route', ref('workflow.input.side'), {
              left: [inlineTask('l1', '(function () { return "L1"; })()')],
              right: [
                inlineTask('r1', '(function () { return "R1"; })()'),
                inlineTask('r2', '(function () { return "R2"; })()'),
              ],
            }),
            doWhileTask('loop', "if ($.loop['iteration'] < 3) { true; } else { false; }", [
              inlineTask('tick', '(function () { return 7; })()'),
            ]),
          ],
          ref('workflow.input.forkInputs'),
        ),
        joinTask('gather', []),
      ]),
      outputParameters: {
        joined: ref('gather.output'),
        last: ref('r2.output.result'),
        ticks: ref('loop.output.iteration'),
      },
    };
    const run = await runToEnd(def, { side: 'right', forkInputs: {} });
    expect(run.status).toBe('COMPLETED');
    expect(run.output).toMatchObject({
      last: 'R2',
      ticks: 3,
      joined: { route: { selectedCase: 'right' }, loop: { iteration: 3 } },
    });
    const refs = run.tasks?.map((t) => t.referenceTaskName);
    expect(refs).toEqual(
      expect.arrayContaining(['route', 'r1', 'r2', 'loop', 'tick__1', 'tick__2', 'tick__3']),
    );
    expect(refs).not.toContain('l1');
  });

  it('fails a FORK_JOIN branch, saying why and what to do instead', async () => {
    const def = workflow(uniqueName('sdk_dyn_fork_branch'), [
      dynamicForkTask('fan', [forkTask('inner', [inlineTask('a', '1')])], ref('workflow.input.forkInputs')),
      joinTask('gather', []),
    ]);
    const run = await runToEnd(def, { forkInputs: {} });
    expect(run.status).toBe('FAILED');
    const fan = run.tasks?.find((t) => t.referenceTaskName === 'fan');
    expect(fan?.reasonForIncompletion).toContain('branch inner is a FORK_JOIN');
    expect(fan?.reasonForIncompletion).toContain('inside a SWITCH case or a DO_WHILE');
  });
});
