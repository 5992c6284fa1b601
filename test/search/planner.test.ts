/** The planner: which index each query uses, the key window, and whether index rows cover it. */
import { describe, expect, it } from 'vitest';
import { WORKFLOW_FIELDS } from '../../lib/search/evaluate.ts';
import { parseFreeText } from '../../lib/search/free-text.ts';
import { MAX_DAY_SPAN, planWorkflowSearch } from '../../lib/search/planner.ts';
import { parseQuery } from '../../lib/search/query-parser.ts';
import { parseSort, SearchService } from '../../lib/search/service.ts';
import { MemoryExecutionStore } from '../../lib/store/memory/executions.ts';

const plan = (query: string, freeText = '*', sort = 'startTime:DESC') =>
  planWorkflowSearch(parseQuery(query), parseFreeText(freeText), parseSort(sort, WORKFLOW_FIELDS));

describe('search planner', () => {
  it('uses byName for workflowType = or IN, with the startTime window as key condition', () => {
    expect(plan('workflowType IN (a,b) AND status IN (COMPLETED)')).toMatchObject({
      index: 'byName',
      read: { names: ['a', 'b'], startFrom: undefined, startTo: undefined },
      covered: true,
    });
    expect(plan('workflowType="a" AND startTime>100 AND startTime<=200')).toMatchObject({
      index: 'byName',
      read: { names: ['a'], startFrom: 101, startTo: 200 },
    });
  });

  it('intersects several workflowType conditions', () => {
    expect(plan('workflowType IN (a,b) AND workflowType=b').read.names).toEqual(['b']);
  });

  it('scans when no workflowType is pinned (OR, NOT IN, none), still narrowing by time', () => {
    expect(plan('workflowType=a OR workflowType=b')).toMatchObject({
      index: 'scan',
      read: { names: undefined },
    });
    expect(plan('workflowType NOT IN (a)').index).toBe('scan');
    expect(plan('startTime>=5')).toMatchObject({ index: 'scan', read: { startFrom: 5 }, covered: true });
  });

  it('reads by start day when no type is pinned and the window spans under MAX_DAY_SPAN days', () => {
    const DAY = 86_400_000;
    const now = 1_800_000_000_000;
    const at = (query: string) =>
      planWorkflowSearch(
        parseQuery(query),
        parseFreeText('*'),
        parseSort('startTime:DESC', WORKFLOW_FIELDS),
        now,
      );
    // The UI's executions page: a lower bound only; the days run to tomorrow.
    expect(at(`startTime>${now - 7 * DAY}`)).toMatchObject({
      index: 'byStartDay',
      read: { startFrom: now - 7 * DAY + 1, startTo: now + DAY, byStartDay: true },
      covered: true,
    });
    expect(at(`startTime>=100 AND startTime<=${100 + 3 * DAY} AND status=RUNNING`)).toMatchObject({
      index: 'byStartDay',
      read: { startFrom: 100, startTo: 100 + 3 * DAY, byStartDay: true },
    });
    expect(at(`startTime>=0 AND startTime<=${(MAX_DAY_SPAN + 1) * DAY}`).index).toBe('scan');
    expect(at(`startTime>${now - 200 * DAY}`).index).toBe('scan');
    expect(at(`startTime<${now}`).index).toBe('scan');
    expect(at(`startTime>${now - DAY} OR status=RUNNING`).index).toBe('scan');
    expect(at(`workflowType=a AND startTime>${now - DAY}`)).toMatchObject({
      index: 'byName',
      read: { names: ['a'], startFrom: now - DAY + 1, startTo: undefined },
    });
  });

  it('is covered only when query, free text and sort need index fields alone', () => {
    expect(plan('status=RUNNING', '*', 'startTime:DESC').covered).toBe(true);
    expect(plan('status=RUNNING', 'needle').covered).toBe(false);
    expect(plan('endTime>5').covered).toBe(false);
    expect(plan('status=RUNNING', '*', 'updateTime:ASC').covered).toBe(false);
  });

  it('keeps the index-answerable conjuncts as the row filter', () => {
    expect(plan('status=RUNNING AND endTime>5').rowFilter).toMatchObject({
      kind: 'compare',
      field: 'status',
    });
    expect(plan('endTime>5 OR status=RUNNING').rowFilter).toBeUndefined();
  });

  it('parses sort lists and defaults to startTime DESC', () => {
    expect(parseSort(undefined, WORKFLOW_FIELDS)).toEqual([{ field: 'startTime', descending: true }]);
    expect(parseSort('status|startTime:desc,workflowId:ASC', WORKFLOW_FIELDS)).toEqual([
      { field: 'status', descending: false },
      { field: 'startTime', descending: true },
      { field: 'workflowId', descending: false },
    ]);
  });
});

describe('task search access paths', () => {
  /** The store calls a task search makes. */
  async function callsOf(query: string): Promise<string[]> {
    const calls: string[] = [];
    const inner = new MemoryExecutionStore();
    const store = new Proxy(inner, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(String(prop));
          return value.apply(target, args);
        };
      },
    });
    await new SearchService(store).tasks({ start: 0, size: 10, query });
    return calls;
  }

  it('uses byTaskType for taskType, the run rows for workflowId, byName for workflowType, else a scan', async () => {
    expect(await callsOf('taskType IN (a,b) AND status=COMPLETED')).toEqual(['tasksOfTypes']);
    expect(await callsOf("workflowId='w-1'")).toEqual(['scanTasks']);
    expect(await callsOf('workflowType=x AND status=FAILED')).toEqual(['runIndex', 'scanTasks']);
    expect(await callsOf('status=FAILED')).toEqual(['scanTasks']);
  });
});
