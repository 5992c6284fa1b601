/**
 * The async task-type hook (TaskType.start): a task of an 'async' type is handed to its type once
 * the decide that scheduled it has committed, never queued for workers, and its answer is written
 * back like a worker's update, after which the run goes on. Built over a registry holding a test type.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Executor } from '../../lib/engine/executor.ts';
import { RunEnd } from '../../lib/engine/run-end.ts';
import type { ScriptEvaluator } from '../../lib/engine/script/evaluator.ts';
import type { AsyncStartContext, AsyncTaskResult, TaskType } from '../../lib/engine/task-type.ts';
import { defaultRegistry } from '../../lib/engine/tasks/index.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { MetadataService } from '../../lib/metadata/service.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import { randomIds } from '../../lib/model/ids.ts';
import { LocalDecisionQueue } from '../../lib/queue/local.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import type { Stores } from '../../lib/store/ports.ts';
import { WorkflowStarter } from '../../lib/workflows/start.ts';
import { ref } from '../helpers/fixtures.ts';

const noScripts: ScriptEvaluator = {
  evaluate: () => Promise.reject(new Error('no scripts in these tests')),
  close: () => Promise.resolve(),
};

describe('an async task type', () => {
  let stores: Stores;
  let decisions: LocalDecisionQueue;
  let starter: WorkflowStarter;
  let metadata: MetadataService;
  const started: AsyncStartContext[] = [];
  let answer: (ctx: AsyncStartContext) => Promise<AsyncTaskResult>;

  const echo: TaskType = {
    type: 'TEST_ECHO',
    kind: 'async',
    supported: true,
    schedule: (ctx, request) => [ctx.createTask(request, { status: 'IN_PROGRESS', startTime: ctx.now })],
    start: (ctx) => {
      started.push(ctx);
      return answer(ctx);
    },
  };

  beforeEach(async () => {
    started.length = 0;
    const clock = new ManualClock();
    stores = createMemoryStores();
    decisions = new LocalDecisionQueue(clock, silentLogger);
    metadata = new MetadataService(stores.workflowDefs, stores.taskDefs, clock);
    starter = new WorkflowStarter({
      executions: stores.executions,
      taskDefs: stores.taskDefs,
      metadata,
      decisions,
      clock,
      ids: randomIds,
    });
    const registry = defaultRegistry({ scripts: noScripts, clock }).register(echo);
    const executor = new Executor({
      executions: stores.executions,
      queue: stores.queue,
      pollData: stores.pollData,
      decisions,
      registry,
      clock,
      logger: silentLogger,
      startChild: () => Promise.resolve(),
      runEnd: new RunEnd({
        executions: stores.executions,
        queue: stores.queue,
        decisions,
        registry,
        clock,
        logger: silentLogger,
        startFailureWorkflow: () => Promise.resolve(),
        terminateRun: () => Promise.resolve(false),
      }),
    });
    decisions.bind((id, taskIds) => executor.decide(id, taskIds));
    // A type name no spec knows needs a task definition to register, as a user-defined type would.
    await metadata.registerTaskDefs([{ name: 'echo' }]);
    await metadata.registerWorkflowDef(
      {
        name: 'echoes',
        tasks: [
          { name: 'echo', taskReferenceName: 'echo', type: 'TEST_ECHO', inputParameters: { say: 'hi' } },
        ],
        outputParameters: { said: ref('echo.output.said') },
      },
      true,
    );
  });
  afterEach(() => decisions.close());

  it('runs off the decider after the commit and reports its result back, and the run goes on', async () => {
    answer = async ({ task }) => ({ status: 'COMPLETED', outputData: { said: task.inputData.say } });
    const id = await starter.start({ name: 'echoes' });
    await decisions.idle();
    expect(started.map((s) => [s.task.referenceTaskName, s.run.workflowId])).toEqual([['echo', id]]);
    expect(await stores.queue.sizes()).toEqual({});
    const run = await stores.executions.getWorkflow(id);
    expect(run?.status).toBe('COMPLETED');
    expect(run?.output).toEqual({ said: 'hi' });
  });

  it('leaves a task that is still in progress as it was created: no row write, no decide', async () => {
    answer = async () => ({ status: 'IN_PROGRESS' });
    const id = await starter.start({ name: 'echoes' });
    await decisions.idle();
    const [task] = await stores.executions.listTasks(id);
    const run = await stores.executions.getWorkflow(id);
    expect(task?.status).toBe('IN_PROGRESS');
    // The row is at the revision its creation gave it, and the run was committed once, by the
    // decide that scheduled the task (created at rev 0): no decide was asked for after the start.
    expect(task?.rev).toBe(run?.tasks[0]?.rev);
    expect(task?.updateTime).toBe(task?.scheduledTime);
    expect(run?.rev).toBe(1);

    // An in-progress answer that says something (an output) is written.
    answer = async () => ({ status: 'IN_PROGRESS', outputData: { progress: 1 } });
    const second = await starter.start({ name: 'echoes' });
    await decisions.idle();
    const [reported] = await stores.executions.listTasks(second);
    expect(reported?.outputData).toEqual({ progress: 1 });
    expect(reported?.rev).toBeGreaterThan(task?.rev ?? 0);
  });

  it('fails the task with the error message when start throws', async () => {
    answer = async () => {
      throw new Error('remote said no');
    };
    const id = await starter.start({ name: 'echoes' });
    await decisions.idle();
    const [task] = await stores.executions.listTasks(id);
    expect(task?.status).toBe('FAILED');
    expect(task?.reasonForIncompletion).toBe('remote said no');
  });
});
