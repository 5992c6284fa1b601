/**
 * The search reads of the ExecutionStore port (runIndex, getWorkflowsById, scanTasks) and the
 * SearchService over them, run against every adapter: search.memory.test.ts and
 * search.dynamodb.test.ts. Index rows follow commits (a status change is seen by the next search).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkflowRecord } from '../../lib/model/execution.ts';
import { SearchService } from '../../lib/search/service.ts';
import type { ExecutionStore } from '../../lib/store/ports.ts';
import type { StoresUnderTest } from './definitions.contract.ts';
import { taskOf, workflowOf } from './executions.contract.ts';

const T0 = 1_700_000_000_000;

export function searchContract(name: string, factory: () => Promise<StoresUnderTest>): void {
  describe(`search reads contract: ${name}`, () => {
    let subject: StoresUnderTest;
    let store: ExecutionStore;
    let search: SearchService;

    beforeEach(async () => {
      subject = await factory();
      store = subject.stores.executions;
      search = new SearchService(store);
      // Six runs: two names, times T0..T0+5, alternating status; each with one task row.
      for (let i = 0; i < 6; i++) {
        const id = `wf-${i}`;
        await store.createWorkflow(
          workflowOf(id, {
            workflowName: i % 2 === 0 ? 'even' : 'odd',
            createTime: T0 + i,
            status: i < 3 ? 'RUNNING' : 'COMPLETED',
            endTime: i < 3 ? 0 : T0 + 100,
            correlationId: i === 4 ? 'corr-4' : undefined,
            input: { n: i, tag: i === 5 ? 'needle' : 'hay' },
          }),
        );
        await store.createTasks([taskOf(id, `t-${i}`, 1, { taskType: i === 1 ? 'special' : 'SIMPLE' })]);
      }
    });

    afterEach(async () => {
      await subject.cleanup();
    });

    it('runIndex reads the rows of names within a time window, ascending', async () => {
      const rows = await store.runIndex({ names: ['even'], startFrom: T0 + 1, startTo: T0 + 4 });
      expect(rows.map((r) => r.workflowId)).toEqual(['wf-2', 'wf-4']);
      expect(rows[1]).toMatchObject({
        workflowName: 'even',
        workflowVersion: 1,
        status: 'COMPLETED',
        correlationId: 'corr-4',
        createTime: T0 + 4,
      });
      const all = await store.runIndex({});
      expect(all.map((r) => r.workflowId)).toEqual(['wf-0', 'wf-1', 'wf-2', 'wf-3', 'wf-4', 'wf-5']);
    });

    it('index rows follow a commit that changes the status', async () => {
      const run = await store.getWorkflow('wf-0');
      if (!run) throw new Error('missing');
      await store.commitWorkflow({ ...run, status: 'FAILED', rev: run.rev + 1 }, run.rev);
      const rows = await store.runIndex({ names: ['even'] });
      expect(rows.find((r) => r.workflowId === 'wf-0')?.status).toBe('FAILED');
      const found = await search.workflows({ start: 0, size: 10, query: 'status=FAILED' });
      expect(found.results.map((r) => r.workflowId)).toEqual(['wf-0']);
    });

    it('getWorkflowsById keeps the order asked and leaves out missing runs', async () => {
      const runs = await store.getWorkflowsById(['wf-3', 'nope', 'wf-1']);
      expect(runs.map((r) => r.workflowId)).toEqual(['wf-3', 'wf-1']);
    });

    it('tasksOfTypes reads the rows of the given task types, and forgets deleted rows', async () => {
      expect((await store.tasksOfTypes(['special'])).map((t) => t.taskId)).toEqual(['t-1']);
      expect((await store.tasksOfTypes(['SIMPLE', 'nope'])).map((t) => t.taskId).sort()).toEqual([
        't-0',
        't-2',
        't-3',
        't-4',
        't-5',
      ]);
      await store.deleteTasks('wf-1', ['t-1']);
      expect(await store.tasksOfTypes(['special'])).toEqual([]);
      await store.removeWorkflow('wf-0');
      expect((await store.tasksOfTypes(['SIMPLE'])).map((t) => t.taskId)).not.toContain('t-0');
    });

    it('scanTasks reads the rows of given runs, or of every run', async () => {
      expect((await store.scanTasks(['wf-2'])).map((t) => t.taskId)).toEqual(['t-2']);
      expect((await store.scanTasks()).map((t) => t.taskId).sort()).toEqual([
        't-0',
        't-1',
        't-2',
        't-3',
        't-4',
        't-5',
      ]);
    });

    it('answers indexed, time-range, free-text and task queries with exact totalHits', async () => {
      const q = (query: string, extra = {}) => search.workflows({ start: 0, size: 100, query, ...extra });
      const ids = async (query: string, extra = {}) =>
        (await q(query, extra)).results.map((r) => r.workflowId);
      expect(await ids('workflowType IN (even) AND status IN (COMPLETED)')).toEqual(['wf-4']);
      expect(await ids(`startTime>=${T0 + 2} AND startTime<${T0 + 5}`, { sort: 'startTime:ASC' })).toEqual([
        'wf-2',
        'wf-3',
        'wf-4',
      ]);
      expect(await ids("correlationId='corr-4'")).toEqual(['wf-4']);
      expect(await ids('workflowType=odd OR status=COMPLETED')).toEqual(['wf-5', 'wf-4', 'wf-3', 'wf-1']);
      expect(
        (await search.workflows({ start: 0, size: 10, freeText: 'needle' })).results.map((r) => r.workflowId),
      ).toEqual(['wf-5']);
      const page = await q('workflowType=even', { start: 1, size: 1 });
      expect(page).toMatchObject({ totalHits: 3 });
      expect(page.results.map((r) => r.workflowId)).toEqual(['wf-2']);
      const tasks = await search.tasks({ start: 0, size: 10, query: 'taskType=special' });
      expect(tasks.results.map((t) => t.taskId)).toEqual(['t-1']);
      const byTasks = await search.workflowsByTasks({ start: 0, size: 10, query: 'taskType=special' });
      expect(byTasks.results.map((r) => r.workflowId)).toEqual(['wf-1']);
    });

    it('free text matches words in any case, every word, phrases, and runs whose payloads are kept outside the record', async () => {
      await store.createWorkflow(
        workflowOf('wf-text', {
          createTime: T0 + 10,
          status: 'COMPLETED',
          input: { note: 'Shipped to "Dock 7" \\ gate', code: 'ABC-123' },
          reasonForIncompletion: 'Timed Out',
        }),
      );
      await store.createWorkflow(
        workflowOf('wf-outside', {
          createTime: T0 + 11,
          input: {},
          externalInputPayloadStoragePath: 'sha256/0000.json',
        }),
      );
      const found = async (freeText: string) =>
        (await search.workflows({ start: 0, size: 10, freeText })).results.map((r) => r.workflowId).sort();
      expect(await found('abc-123')).toEqual(['wf-text']);
      expect(await found('SHIPPED abc-123')).toEqual(['wf-text']);
      expect(await found('shipped absent')).toEqual([]);
      expect(await found('"dock 7"')).toEqual(['wf-text']);
      expect(await found('"timed out"')).toEqual(['wf-text']);
      expect(await found('NEEDLE')).toEqual(['wf-5']);
      expect(await found('wf-outside')).toEqual(['wf-outside']);
      // Run again (a retry): its text is the new record's, not the finished one's.
      const finished = (await store.getWorkflow('wf-text')) as WorkflowRecord;
      await store.commitWorkflow(
        { ...finished, status: 'RUNNING', input: { code: 'XYZ-9' }, rev: finished.rev + 1 },
        finished.rev,
      );
      expect(await found('abc-123')).toEqual([]);
      expect(await found('xyz-9')).toEqual(['wf-text']);
    });

    it('finds runs by start day across days and midnight, with or without an upper bound', async () => {
      const DAY = 86_400_000;
      const midnight = Math.ceil(T0 / DAY) * DAY;
      const times = {
        'day-0': midnight - 40 * DAY,
        'day-a': midnight - 1,
        'day-b': midnight,
        'day-c': midnight + DAY + 5,
        'day-d': midnight + DAY + 30_000,
      };
      for (const [id, createTime] of Object.entries(times)) {
        await store.createWorkflow(
          workflowOf(id, { workflowName: id === 'day-c' ? 'odd' : 'even', createTime }),
        );
      }
      // The UI's default query (a lower bound only), with now a little after day-c.
      const soon = new SearchService(store, undefined, { now: () => midnight + DAY + 60_000 });
      const ids = async (query: string, service = search) =>
        (await service.workflows({ start: 0, size: 100, query, sort: 'startTime:ASC' })).results.map(
          (r) => r.workflowId,
        );
      expect(await ids(`startTime>=${midnight - 1}`, soon)).toEqual(['day-a', 'day-b', 'day-c', 'day-d']);
      expect(await ids(`startTime>=${midnight - 1} AND startTime<=${midnight + DAY + 5}`)).toEqual([
        'day-a',
        'day-b',
        'day-c',
      ]);
      expect(
        await ids(`startTime>${midnight - 1} AND startTime<${midnight + DAY + 5} AND status=RUNNING`),
      ).toEqual(['day-b']);
    });

    it('a removed run leaves the results', async () => {
      await store.removeWorkflow('wf-4');
      const found = await search.workflows({ start: 0, size: 10, query: 'workflowType=even' });
      expect(found).toMatchObject({ totalHits: 2 });
    });
  });
}
