/**
 * The contract of the ExecutionStore port, run against every adapter: executions.memory.test.ts and
 * executions.dynamodb.test.ts. The engine relies on exactly these guarantees (conditional commits,
 * idempotent task creation, ordering by seq) to run without transactions.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, VersionConflictError } from '../../lib/model/errors.ts';
import type { TaskRecord, WorkflowRecord } from '../../lib/model/execution.ts';
import type { ExecutionStore } from '../../lib/store/ports.ts';
import { type StoresUnderTest, workflowDefOf } from './definitions.contract.ts';

const T0 = 1_700_000_000_000;

/** A complete run record, as the engine commits it. */
export function workflowOf(workflowId: string, extra: Partial<WorkflowRecord> = {}): WorkflowRecord {
  return {
    workflowId,
    workflowName: 'order_flow',
    workflowVersion: 1,
    status: 'RUNNING',
    createTime: T0,
    updateTime: T0,
    endTime: 0,
    input: { orderId: 'o-1', lines: [{ sku: 'a', qty: 2 }], note: 'ünïcödé 👋' },
    output: {},
    variables: {},
    priority: 0,
    taskToDomain: {},
    failedReferenceTaskNames: [],
    failedTaskNames: [],
    lastRetriedTime: 0,
    workflowDefinition: workflowDefOf('order_flow', 1),
    rev: 1,
    seq: 0,
    tasks: [],
    wakeAt: 0,
    ...extra,
  };
}

/** A complete task row, as the decider schedules it. */
export function taskOf(
  workflowId: string,
  taskId: string,
  seq: number,
  extra: Partial<TaskRecord> = {},
): TaskRecord {
  return {
    taskId,
    taskType: 'SIMPLE',
    taskDefName: 'first_task',
    referenceTaskName: `ref_${seq}`,
    status: 'SCHEDULED',
    inputData: { value: seq, nested: { list: [1, 2, { deep: true }] } },
    outputData: {},
    workflowInstanceId: workflowId,
    workflowType: 'order_flow',
    workflowPriority: 0,
    retryCount: 0,
    seq,
    pollCount: 0,
    scheduledTime: T0 + seq,
    startTime: 0,
    endTime: 0,
    updateTime: T0 + seq,
    startDelayInSeconds: 0,
    callbackAfterSeconds: 0,
    responseTimeoutSeconds: 600,
    retried: false,
    executed: false,
    callbackFromWorker: true,
    workflowTask: {
      name: 'first_task',
      taskReferenceName: `ref_${seq}`,
      type: 'SIMPLE',
      inputParameters: {},
      optional: false,
      startDelay: 0,
      asyncComplete: false,
    },
    rateLimitPerFrequency: 0,
    rateLimitFrequencyInSeconds: 0,
    iteration: 0,
    firstScheduledTime: T0 + seq,
    waitTimeout: 0,
    rev: 1,
    ...extra,
  };
}

const idsOf = (records: readonly { workflowId: string }[]) => records.map((r) => r.workflowId);
const taskIdsOf = (tasks: readonly TaskRecord[]) => tasks.map((t) => t.taskId);

export function executionStoreContract(name: string, factory: () => Promise<StoresUnderTest>): void {
  describe(`execution store contract: ${name}`, () => {
    let subject: StoresUnderTest;
    let store: ExecutionStore;

    beforeEach(async () => {
      subject = await factory();
      store = subject.stores.executions;
    });

    afterEach(async () => {
      await subject.cleanup();
    });

    describe('workflow records', () => {
      it('round-trips every field of a created record, including the task index and definition', async () => {
        const record = workflowOf('wf-round-trip', {
          correlationId: 'corr-1',
          variables: { greeting: 'こんにちは', count: 0, flag: false, none: null },
          taskToDomain: { '*': 'blue' },
          parentWorkflowId: 'parent-1',
          seq: 2,
          tasks: [taskOf('wf-round-trip', 'task-a', 1), taskOf('wf-round-trip', 'task-b', 2)],
          wakeAt: T0 + 60_000,
        });

        await store.createWorkflow(record);

        expect(await store.getWorkflow('wf-round-trip')).toEqual(record);
      });

      it('answers undefined for a run that does not exist', async () => {
        expect(await store.getWorkflow('missing')).toBeUndefined();
      });

      it('rejects a second create of the same id with a ConflictError and keeps the first', async () => {
        const first = workflowOf('wf-dup', { input: { attempt: 1 } });
        await store.createWorkflow(first);

        const second = store.createWorkflow(workflowOf('wf-dup', { input: { attempt: 2 } }));

        await expect(second).rejects.toBeInstanceOf(ConflictError);
        expect(await store.getWorkflow('wf-dup')).toEqual(first);
      });

      it('commits a record whose stored rev matches the expected rev', async () => {
        await store.createWorkflow(workflowOf('wf-commit'));
        const next = workflowOf('wf-commit', {
          rev: 2,
          status: 'COMPLETED',
          output: { done: true },
          endTime: T0 + 5,
        });

        await store.commitWorkflow(next, 1);

        expect(await store.getWorkflow('wf-commit')).toEqual(next);
      });

      it('rejects a commit with a stale rev as a VersionConflictError and leaves the record unchanged', async () => {
        await store.createWorkflow(workflowOf('wf-stale'));
        const winner = workflowOf('wf-stale', { rev: 2, variables: { by: 'winner' } });
        await store.commitWorkflow(winner, 1);

        const loser = store.commitWorkflow(workflowOf('wf-stale', { rev: 2, variables: { by: 'loser' } }), 1);

        await expect(loser).rejects.toBeInstanceOf(VersionConflictError);
        expect(await store.getWorkflow('wf-stale')).toEqual(winner);
      });

      it('rejects a commit of a run that does not exist as a VersionConflictError', async () => {
        await expect(store.commitWorkflow(workflowOf('wf-ghost', { rev: 2 }), 1)).rejects.toBeInstanceOf(
          VersionConflictError,
        );
        expect(await store.getWorkflow('wf-ghost')).toBeUndefined();
      });

      it('hands out copies: mutating a returned record leaves the stored one unchanged', async () => {
        const record = workflowOf('wf-copy', { variables: { n: 1 } });
        await store.createWorkflow(record);

        const read = await store.getWorkflow('wf-copy');
        if (!read) throw new Error('expected a stored record');
        // A store may share its payloads frozen (the memory store does): changing one in place then
        // fails loudly rather than reaching the stored record.
        try {
          read.variables.n = 99;
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError);
        }
        read.status = 'FAILED';

        expect(await store.getWorkflow('wf-copy')).toEqual(record);
      });
    });

    describe('task rows', () => {
      it('creates rows and reads each back unchanged by workflow and task id', async () => {
        const a = taskOf('wf-t', 'task-a', 1, { correlationId: 'c', domain: 'blue', parentTaskId: 'loop-1' });
        const b = taskOf('wf-t', 'task-b', 2);

        const created = await store.createTasks([a, b]);

        expect(created).toEqual([a, b]);
        expect(await store.getTask('wf-t', 'task-a')).toEqual(a);
        expect(await store.getTask('wf-t', 'task-b')).toEqual(b);
        expect(await store.getTask('wf-t', 'task-missing')).toBeUndefined();
        expect(await store.getTask('wf-other', 'task-a')).toBeUndefined();
      });

      it('returns the stored row, not the given one, when a created task id already exists', async () => {
        const original = taskOf('wf-adopt', 'task-a', 1);
        await store.createTasks([original]);
        // A worker polls the task before the decide that created it crashes and runs again.
        const polled = {
          ...original,
          status: 'IN_PROGRESS' as const,
          workerId: 'worker-7',
          pollCount: 1,
          rev: 2,
        };
        await store.updateTask(polled, 1);
        const fresh = taskOf('wf-adopt', 'task-b', 2);

        const rerun = await store.createTasks([original, fresh]);

        expect(rerun).toEqual([polled, fresh]);
        expect(await store.getTask('wf-adopt', 'task-a')).toEqual(polled);
        expect(await store.getTask('wf-adopt', 'task-b')).toEqual(fresh);
      });

      it('updates a row only when its stored rev matches, else a VersionConflictError', async () => {
        const task = taskOf('wf-upd', 'task-a', 1);
        await store.createTasks([task]);
        const completed = { ...task, status: 'COMPLETED' as const, outputData: { ok: true }, rev: 2 };
        await store.updateTask(completed, 1);

        const stale = store.updateTask({ ...task, status: 'FAILED', rev: 2 }, 1);

        await expect(stale).rejects.toBeInstanceOf(VersionConflictError);
        expect(await store.getTask('wf-upd', 'task-a')).toEqual(completed);
        await expect(
          store.updateTask(taskOf('wf-upd', 'task-missing', 9, { rev: 2 }), 1),
        ).rejects.toBeInstanceOf(VersionConflictError);
        expect(await store.getTask('wf-upd', 'task-missing')).toBeUndefined();
      });

      it('lists the rows of a run ordered by seq numerically, not lexically', async () => {
        await store.createTasks([taskOf('wf-seq', 'ten', 10), taskOf('wf-seq', 'one', 1)]);
        await store.createTasks([taskOf('wf-seq', 'two', 2)]);
        await store.createTasks([taskOf('wf-seq-other', 'elsewhere', 3)]);

        const listed = await store.listTasks('wf-seq');

        expect(taskIdsOf(listed)).toEqual(['one', 'two', 'ten']);
        expect(listed[2]).toEqual(taskOf('wf-seq', 'ten', 10));
        expect(await store.listTasks('wf-none')).toEqual([]);
      });

      it('lists rows of the same seq by scheduled time, then task id, in every store alike', async () => {
        // A decide that adopts a row it wrote before a concurrent skip committed leaves two rows
        // with one seq; the earlier scheduled comes first, whatever the ids.
        await store.createTasks([
          taskOf('wf-tie', 'zz-first', 1, { scheduledTime: T0 + 1 }),
          taskOf('wf-tie', 'aa-skipped', 1, { scheduledTime: T0 + 7 }),
          taskOf('wf-tie', 'mm-same-time', 1, { scheduledTime: T0 + 7 }),
        ]);
        expect(taskIdsOf(await store.listTasks('wf-tie'))).toEqual([
          'zz-first',
          'aa-skipped',
          'mm-same-time',
        ]);
      });

      it('gets the requested rows of a run in the requested order, skipping ids it does not have', async () => {
        await store.createTasks([
          taskOf('wf-get', 'one', 1),
          taskOf('wf-get', 'two', 2),
          taskOf('wf-get', 'ten', 10),
        ]);
        await store.createTasks([taskOf('wf-get-other', 'foreign', 1)]);

        const got = await store.getTasks('wf-get', ['ten', 'missing', 'one', 'foreign']);

        expect(taskIdsOf(got)).toEqual(['ten', 'one']);
        expect(got[0]).toEqual(taskOf('wf-get', 'ten', 10));
        expect(await store.getTasks('wf-get', [])).toEqual([]);
      });

      it('finds a task by its id alone', async () => {
        const task = taskOf('wf-find', 'task-unique', 4, { status: 'IN_PROGRESS' });
        await store.createTasks([task, taskOf('wf-find', 'task-other', 5)]);

        expect(await store.findTask('task-unique')).toEqual(task);
        expect(await store.findTask('task-nowhere')).toBeUndefined();
      });

      it('deletes the given rows and their logs, leaving the others', async () => {
        await store.createTasks([taskOf('wf-del', 'keep', 1), taskOf('wf-del', 'drop', 2)]);
        await store.appendLogs([
          { taskId: 'keep', log: 'kept line', createdTime: T0 },
          { taskId: 'drop', log: 'dropped line', createdTime: T0 },
        ]);

        await store.deleteTasks('wf-del', ['drop', 'never-existed']);

        expect(taskIdsOf(await store.listTasks('wf-del'))).toEqual(['keep']);
        expect(await store.getTask('wf-del', 'drop')).toBeUndefined();
        expect(await store.findTask('drop')).toBeUndefined();
        expect(await store.logs('drop')).toEqual([]);
        expect(await store.logs('keep')).toEqual([{ taskId: 'keep', log: 'kept line', createdTime: T0 }]);
      });
    });

    describe('removing a run', () => {
      it('removes the record, every task row and their logs, and nothing of other runs', async () => {
        await store.createWorkflow(workflowOf('wf-gone', { wakeAt: T0 }));
        await store.createWorkflow(workflowOf('wf-stays', { wakeAt: T0 }));
        const many = Array.from({ length: 30 }, (_, i) => taskOf('wf-gone', `gone-${i}`, i + 1));
        await store.createTasks(many);
        await store.createTasks([taskOf('wf-stays', 'stays-1', 1)]);
        await store.appendLogs([
          { taskId: 'gone-0', log: 'a', createdTime: T0 },
          { taskId: 'gone-29', log: 'b', createdTime: T0 + 1 },
          { taskId: 'stays-1', log: 'c', createdTime: T0 + 2 },
        ]);

        await store.removeWorkflow('wf-gone');

        expect(await store.getWorkflow('wf-gone')).toBeUndefined();
        expect(await store.listTasks('wf-gone')).toEqual([]);
        expect(await store.findTask('gone-29')).toBeUndefined();
        expect(await store.logs('gone-0')).toEqual([]);
        expect(await store.logs('gone-29')).toEqual([]);
        expect(await store.dueWakeups(T0, 10)).toEqual([{ workflowId: 'wf-stays', wakeAt: T0 }]);
        expect(await store.getWorkflow('wf-stays')).toBeDefined();
        expect(taskIdsOf(await store.listTasks('wf-stays'))).toEqual(['stays-1']);
        expect(await store.logs('stays-1')).toHaveLength(1);
      });

      it('treats removing an unknown run as done', async () => {
        await expect(store.removeWorkflow('wf-never')).resolves.toBeUndefined();
      });
    });

    describe('finding runs', () => {
      beforeEach(async () => {
        const runs: [string, Partial<WorkflowRecord>][] = [
          ['run-1', { createTime: T0 + 100, status: 'RUNNING', correlationId: 'alpha' }],
          ['run-2', { createTime: T0 + 200, status: 'COMPLETED', correlationId: 'beta' }],
          ['run-3', { createTime: T0 + 300, status: 'FAILED', correlationId: 'alpha', workflowVersion: 2 }],
          ['run-4', { createTime: T0 + 400, status: 'RUNNING', workflowVersion: 2 }],
          ['other-1', { createTime: T0 + 250, workflowName: 'other_flow', correlationId: 'alpha' }],
        ];
        // Created out of time order, so an adapter cannot pass by returning insertion order.
        for (const [id, extra] of [...runs].reverse()) await store.createWorkflow(workflowOf(id, extra));
      });

      it('returns every run of a name, oldest first, as full records', async () => {
        const found = await store.findWorkflows({ name: 'order_flow' });

        expect(idsOf(found)).toEqual(['run-1', 'run-2', 'run-3', 'run-4']);
        expect(found[0]).toEqual(
          workflowOf('run-1', { createTime: T0 + 100, status: 'RUNNING', correlationId: 'alpha' }),
        );
        expect(await store.findWorkflows({ name: 'no_such_flow' })).toEqual([]);
      });

      it('filters by version, statuses and correlation id together', async () => {
        expect(idsOf(await store.findWorkflows({ name: 'order_flow', version: 2 }))).toEqual([
          'run-3',
          'run-4',
        ]);
        expect(
          idsOf(await store.findWorkflows({ name: 'order_flow', statuses: ['RUNNING', 'FAILED'] })),
        ).toEqual(['run-1', 'run-3', 'run-4']);
        expect(idsOf(await store.findWorkflows({ name: 'order_flow', correlationId: 'alpha' }))).toEqual([
          'run-1',
          'run-3',
        ]);
        expect(
          idsOf(
            await store.findWorkflows({
              name: 'order_flow',
              version: 2,
              statuses: ['RUNNING'],
              correlationId: 'alpha',
            }),
          ),
        ).toEqual([]);
        expect(await store.findWorkflows({ name: 'order_flow', statuses: [] })).toEqual([]);
      });

      it('limits to a start-time window, bounds included', async () => {
        expect(
          idsOf(
            await store.findWorkflows({
              name: 'order_flow',
              startedAfter: T0 + 200,
              startedBefore: T0 + 300,
            }),
          ),
        ).toEqual(['run-2', 'run-3']);
        expect(idsOf(await store.findWorkflows({ name: 'order_flow', startedAfter: T0 + 300 }))).toEqual([
          'run-3',
          'run-4',
        ]);
        expect(idsOf(await store.findWorkflows({ name: 'order_flow', startedBefore: T0 + 100 }))).toEqual([
          'run-1',
        ]);
        expect(
          await store.findWorkflows({ name: 'order_flow', startedAfter: T0 + 300, startedBefore: T0 + 200 }),
        ).toEqual([]);
        expect(
          idsOf(
            await store.findWorkflows({
              name: 'order_flow',
              startedAfter: T0,
              startedBefore: T0 + 1000,
              statuses: ['RUNNING'],
            }),
          ),
        ).toEqual(['run-1', 'run-4']);
      });

      it('sees commits that change the filtered fields', async () => {
        await store.commitWorkflow(
          workflowOf('run-1', { createTime: T0 + 100, status: 'COMPLETED', correlationId: 'alpha', rev: 2 }),
          1,
        );

        expect(idsOf(await store.findWorkflows({ name: 'order_flow', statuses: ['RUNNING'] }))).toEqual([
          'run-4',
        ]);
        expect(idsOf(await store.findWorkflows({ name: 'order_flow', statuses: ['COMPLETED'] }))).toEqual([
          'run-1',
          'run-2',
        ]);
      });
    });

    describe('finding runs by correlation id', () => {
      it('finds runs by a correlation id of any length, and only those of the name', async () => {
        const long = 'c'.repeat(5000);
        await store.createWorkflow(workflowOf('long-1', { createTime: T0 + 2, correlationId: long }));
        await store.createWorkflow(workflowOf('long-2', { createTime: T0 + 1, correlationId: long }));
        await store.createWorkflow(workflowOf('prefix', { correlationId: long.slice(1) }));
        await store.createWorkflow(
          workflowOf('elsewhere', { workflowName: 'other_flow', correlationId: long }),
        );

        expect(idsOf(await store.findWorkflows({ name: 'order_flow', correlationId: long }))).toEqual([
          'long-2',
          'long-1',
        ]);
        expect(await store.findWorkflows({ name: 'order_flow', correlationId: 'none' })).toEqual([]);
      });

      it('sees status changes and removals, and applies the time window', async () => {
        await store.createWorkflow(workflowOf('c-1', { createTime: T0 + 100, correlationId: 'k' }));
        await store.createWorkflow(workflowOf('c-2', { createTime: T0 + 200, correlationId: 'k' }));
        await store.createWorkflow(workflowOf('c-3', { createTime: T0 + 300, correlationId: 'k' }));
        await store.commitWorkflow(
          workflowOf('c-1', { createTime: T0 + 100, correlationId: 'k', status: 'COMPLETED', rev: 2 }),
          1,
        );
        await store.removeWorkflow('c-3');

        const query = { name: 'order_flow', correlationId: 'k' };
        expect(idsOf(await store.findWorkflows({ ...query, statuses: ['RUNNING'] }))).toEqual(['c-2']);
        expect(idsOf(await store.findWorkflows(query))).toEqual(['c-1', 'c-2']);
        expect(idsOf(await store.findWorkflows({ ...query, startedAfter: T0 + 150 }))).toEqual(['c-2']);
        expect(await store.findWorkflows({ ...query, statuses: [] })).toEqual([]);
      });
    });

    describe('unfinished runs', () => {
      it('lists the RUNNING and PAUSED runs from the runs themselves, up to the limit', async () => {
        await store.createWorkflow(workflowOf('u-running', { status: 'RUNNING' }));
        await store.createWorkflow(workflowOf('u-paused', { status: 'PAUSED' }));
        await store.createWorkflow(workflowOf('u-done', { status: 'COMPLETED' }));
        await store.createWorkflow(workflowOf('u-failed', { status: 'FAILED' }));
        await store.createTasks([taskOf('u-running', 'u-task', 1)]);

        expect((await store.unfinishedWorkflows(10)).sort()).toEqual(['u-paused', 'u-running']);
        expect(await store.unfinishedWorkflows(1)).toHaveLength(1);
      });
    });

    describe('wake-ups', () => {
      it('returns only runs with a wake-up due by now, soonest first, up to the limit', async () => {
        await store.createWorkflow(workflowOf('late', { wakeAt: T0 + 300 }));
        await store.createWorkflow(workflowOf('none', { wakeAt: 0 }));
        await store.createWorkflow(workflowOf('early', { wakeAt: T0 + 100 }));
        await store.createWorkflow(workflowOf('exact', { wakeAt: T0 + 500 }));
        await store.createWorkflow(workflowOf('future', { wakeAt: T0 + 501 }));

        expect(await store.dueWakeups(T0 + 500, 10)).toEqual([
          { workflowId: 'early', wakeAt: T0 + 100 },
          { workflowId: 'late', wakeAt: T0 + 300 },
          { workflowId: 'exact', wakeAt: T0 + 500 },
        ]);
        expect(await store.dueWakeups(T0 + 500, 2)).toEqual([
          { workflowId: 'early', wakeAt: T0 + 100 },
          { workflowId: 'late', wakeAt: T0 + 300 },
        ]);
        expect(await store.dueWakeups(T0 + 99, 10)).toEqual([]);
      });

      it('drops a run committed with wakeAt 0 and moves one committed with a new wakeAt', async () => {
        await store.createWorkflow(workflowOf('cleared', { wakeAt: T0 + 100 }));
        await store.createWorkflow(workflowOf('moved', { wakeAt: T0 + 200 }));

        await store.commitWorkflow(workflowOf('cleared', { wakeAt: 0, rev: 2 }), 1);
        await store.commitWorkflow(workflowOf('moved', { wakeAt: T0 + 50, rev: 2 }), 1);

        expect(await store.dueWakeups(T0 + 1000, 10)).toEqual([{ workflowId: 'moved', wakeAt: T0 + 50 }]);
        expect((await store.getWorkflow('cleared'))?.wakeAt).toBe(0);
      });
    });

    describe('task logs', () => {
      it('lists the logs of a task in the order they were appended, across calls', async () => {
        await store.appendLogs([
          { taskId: 'logged', log: 'first', createdTime: T0 },
          { taskId: 'logged', log: 'second, same millisecond', createdTime: T0 },
          { taskId: 'elsewhere', log: 'not mine', createdTime: T0 },
        ]);
        await store.appendLogs([{ taskId: 'logged', log: 'third', createdTime: T0 + 1 }]);

        expect(await store.logs('logged')).toEqual([
          { taskId: 'logged', log: 'first', createdTime: T0 },
          { taskId: 'logged', log: 'second, same millisecond', createdTime: T0 },
          { taskId: 'logged', log: 'third', createdTime: T0 + 1 },
        ]);
        expect(await store.logs('silent')).toEqual([]);
      });

      it('keeps more logs of one task than fit in one batch write', async () => {
        const lines = Array.from({ length: 60 }, (_, i) => ({
          taskId: 'chatty',
          log: `line ${i}`,
          createdTime: T0,
        }));

        await store.appendLogs(lines);

        expect(await store.logs('chatty')).toEqual(lines);
      });
    });

    describe('idempotency keys', () => {
      const claim = (
        workflowId: string,
        extra: { key?: string; workflowName?: string; replaces?: string } = {},
      ) => store.claimIdempotencyKey({ workflowName: 'order_flow', key: 'k-1', workflowId, ...extra });

      it('lets the first claim of a key take it and answers the holder to later claims', async () => {
        expect(await claim('wf-first')).toBeUndefined();
        expect(await claim('wf-second')).toBe('wf-first');
        expect(await claim('wf-first')).toBe('wf-first');
      });

      it('scopes a key to its workflow name', async () => {
        expect(await claim('wf-a')).toBeUndefined();
        expect(await claim('wf-b', { workflowName: 'other_flow' })).toBeUndefined();
        expect(await claim('wf-c', { key: 'k-2' })).toBeUndefined();
        expect(await claim('wf-d', { workflowName: 'other_flow' })).toBe('wf-b');
      });

      it('replaces the holder only when the key still points at the run being replaced', async () => {
        await claim('wf-old');
        expect(await claim('wf-new', { replaces: 'wf-stale' })).toBe('wf-old');
        expect(await claim('wf-new', { replaces: 'wf-old' })).toBeUndefined();
        expect(await claim('wf-newer', { replaces: 'wf-old' })).toBe('wf-new');
      });

      it('gives a key to exactly one of 20 concurrent claims', async () => {
        const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => claim(`wf-${i}`)));
        const winners = answers.flatMap((held, i) => (held === undefined ? [`wf-${i}`] : []));
        expect(winners).toHaveLength(1);
        expect(new Set(answers.filter((a) => a !== undefined))).toEqual(new Set(winners));
      });

      it('gives a successor to exactly one of 20 concurrent replacements', async () => {
        await claim('wf-ended');
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) => claim(`wf-next-${i}`, { replaces: 'wf-ended' })),
        );
        expect(answers.filter((a) => a === undefined)).toHaveLength(1);
      });

      it('keeps a claimed key out of the run listings', async () => {
        await claim('wf-claimed');
        expect(await store.findWorkflows({ name: 'order_flow' })).toEqual([]);
        expect(await store.dueWakeups(T0 * 2, 10)).toEqual([]);
      });

      it('holds a stored run (an expired one, before a key moves off it) and tells a gone one', async () => {
        const expired = workflowOf('wf-expired', { status: 'COMPLETED', expiresAt: T0 + 1_000 });
        await store.createWorkflow(expired);
        expect(await store.holdRun('wf-expired', T0 + 86_400_000)).toBe(true);
        // Held twice (a second start), or for less than it already is: still there, unchanged.
        expect(await store.holdRun('wf-expired', T0 + 60_000)).toBe(true);
        expect(await store.getWorkflow('wf-expired')).toEqual(expired);
        expect(await store.holdRun('wf-never', T0 + 86_400_000)).toBe(false);
      });
    });

    describe('payload references (the payload sweep)', () => {
      const key = (n: number) => `sha256/${String(n).repeat(64).slice(0, 64)}.json`;
      const upload = 'task-output/0e4c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b.json';

      const referenced = async (): Promise<string[]> => {
        const keys = new Set<string>();
        await store.payloadReferences((k) => keys.add(k));
        return [...keys].sort();
      };

      it('lists every payload key runs and task rows name: their own paths, their tasks', async () => {
        const big = 'x'.repeat(3000); // over the DynamoDB adapter's deflate threshold
        await store.createWorkflow(
          workflowOf('wf-refs', {
            externalInputPayloadStoragePath: key(1),
            input: {},
            output: { note: big },
            tasks: [taskOf('wf-refs', 'task-in-record', 1, { externalOutputPayloadStoragePath: key(2) })],
          }),
        );
        await store.createTasks([
          taskOf('wf-refs', 'task-row', 2, { externalInputPayloadStoragePath: key(3), inputData: { big } }),
          // A key quoted inside a payload counts too: keeping one payload too many is harmless.
          taskOf('wf-refs', 'task-quoting', 3, { outputData: { saved: upload } }),
        ]);
        await store.appendLogs([{ taskId: 'task-row', log: `not a reference ${key(4)}`, createdTime: T0 }]);
        expect(await referenced()).toEqual([key(1), key(2), key(3), upload].sort());
      });

      it('lists nothing of a removed run, and follows a commit', async () => {
        await store.createWorkflow(workflowOf('wf-gone', { externalOutputPayloadStoragePath: key(5) }));
        await store.createTasks([
          taskOf('wf-gone', 'task-gone', 1, { externalOutputPayloadStoragePath: key(6) }),
        ]);
        const record = workflowOf('wf-kept', { externalInputPayloadStoragePath: key(7) });
        await store.createWorkflow(record);
        await store.removeWorkflow('wf-gone');
        expect(await referenced()).toEqual([key(7)]);
        await store.commitWorkflow(
          {
            ...record,
            externalInputPayloadStoragePath: undefined,
            externalOutputPayloadStoragePath: key(8),
            rev: 2,
          },
          1,
        );
        expect(await referenced()).toEqual([key(8)]);
      });
    });
  });
}
