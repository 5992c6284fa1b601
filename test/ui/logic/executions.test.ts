// The executions pages' logic without a browser: the search request the filters make (parsed by
// the server's own query parser), the diagram layout, which actions a status allows, and the JSON
// input check.
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../lib/search/query-parser.ts';
import { allowed } from '../../../ui/src/pages/executions/actions.ts';
import { layoutDiagram, NODE_HEIGHT, statusByRef } from '../../../ui/src/pages/executions/diagram-layout.ts';
import { parseObject } from '../../../ui/src/pages/executions/json-input.ts';
import {
  filtersFromUrl,
  matchingTypes,
  NO_FILTERS,
  nextSort,
  searchParamsOf,
  urlOfFilters,
} from '../../../ui/src/pages/executions/search-query.ts';

describe('the executions search request', () => {
  it('asks for everything, newest first, when no filter is set', () => {
    expect(searchParamsOf(NO_FILTERS)).toEqual({ start: 0, size: 25, sort: 'startTime:DESC', freeText: '*' });
  });

  it('joins the filters into one where clause the server parses, quoting values with escapes', () => {
    const params = searchParamsOf({
      ...NO_FILTERS,
      workflowType: 'say "hi"\\now',
      statuses: ['FAILED', 'TIMED_OUT'],
      from: '2026-01-02T03:04',
      to: '2026-01-03T00:00',
      correlationId: 'order-1',
      freeText: ' needle ',
      start: 50,
    });
    const from = new Date('2026-01-02T03:04').getTime();
    const to = new Date('2026-01-03T00:00').getTime();
    expect(params.query).toBe(
      `workflowType = "say \\"hi\\"\\\\now" AND status IN (FAILED, TIMED_OUT) AND startTime >= ${from} AND startTime <= ${to} AND correlationId = "order-1"`,
    );
    expect(params.freeText).toBe('needle');
    expect(params.start).toBe(50);
    const ast = parseQuery(params.query) as unknown as { kind: string };
    expect(ast.kind).toBe('and');
    expect(JSON.stringify(ast)).toContain('say \\"hi\\"\\\\now');
  });

  it('leaves out an unreadable time rather than sending it', () => {
    expect(searchParamsOf({ ...NO_FILTERS, from: 'not a time' }).query).toBeUndefined();
  });

  it('keeps the filters in the page URL and reads them back, ignoring unknown statuses, sorts and bad offsets', () => {
    const filters = {
      ...NO_FILTERS,
      workflowType: 'a b',
      statuses: ['RUNNING', 'PAUSED'],
      sort: { field: 'endTime' as const, descending: false },
      start: 25,
    };
    expect(urlOfFilters(filters).toString()).toBe(
      'workflowType=a+b&status=RUNNING%2CPAUSED&sort=endTime%3AASC&start=25',
    );
    expect(filtersFromUrl(urlOfFilters(filters))).toEqual(filters);
    expect(urlOfFilters(NO_FILTERS).toString()).toBe('');
    expect(filtersFromUrl(new URLSearchParams('status=DROP&start=-3&sort=input:ASC'))).toEqual(NO_FILTERS);
    expect(filtersFromUrl(new URLSearchParams('sort=status:SIDEWAYS')).sort).toEqual(NO_FILTERS.sort);
  });

  it('lets a workflow type typed in part stand for the registered types containing it', () => {
    const registered = ['order_flow', 'Order_refund', 'shipping', 'order_flow'];
    expect(matchingTypes('order', registered)).toEqual(['Order_refund', 'order_flow']);
    expect(matchingTypes('order_flow', registered)).toEqual(['order_flow']);
    expect(matchingTypes('billing', registered)).toEqual(['billing']);
    expect(matchingTypes('  ', registered)).toEqual([]);
    const query = searchParamsOf({ ...NO_FILTERS, workflowType: 'ORDER' }, registered).query ?? '';
    expect(query).toBe('workflowType IN ("Order_refund", "order_flow")');
    expect(JSON.stringify(parseQuery(query))).toContain('Order_refund');
  });

  it('sorts by a clicked header ascending, then the other way, through the search API sort', () => {
    const byType = nextSort(NO_FILTERS.sort, 'workflowType');
    expect(byType).toEqual({ field: 'workflowType', descending: false });
    expect(nextSort(byType, 'workflowType')).toEqual({ field: 'workflowType', descending: true });
    expect(nextSort(NO_FILTERS.sort, 'startTime')).toEqual({ field: 'startTime', descending: false });
    expect(searchParamsOf({ ...NO_FILTERS, sort: { field: 'executionTime', descending: true } }).sort).toBe(
      'executionTime:DESC',
    );
  });
});

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('the workflow diagram layout', () => {
  const tasks = [
    { name: 'first', taskReferenceName: 'first', type: 'SIMPLE' },
    {
      name: 'fork',
      taskReferenceName: 'fork',
      type: 'FORK_JOIN',
      forkTasks: [
        [{ name: 'a', taskReferenceName: 'a', type: 'SIMPLE' }],
        [
          { name: 'b1', taskReferenceName: 'b1', type: 'SIMPLE' },
          { name: 'b2', taskReferenceName: 'b2', type: 'SIMPLE' },
        ],
      ],
    },
    { name: 'join', taskReferenceName: 'join', type: 'JOIN' },
    {
      name: 'route',
      taskReferenceName: 'route',
      type: 'SWITCH',
      decisionCases: { yes: [{ name: 'y', taskReferenceName: 'y', type: 'SIMPLE' }], no: [] },
      defaultCase: [],
    },
    {
      name: 'loop',
      taskReferenceName: 'loop',
      type: 'DO_WHILE',
      loopOver: [{ name: 'body', taskReferenceName: 'body', type: 'INLINE' }],
    },
  ];
  const diagram = layoutDiagram(tasks);
  const node = (ref: string) => {
    const found = diagram.nodes.find((n) => n.ref === ref);
    if (!found) throw new Error(`no node ${ref}`);
    return found;
  };

  it('draws one box per task, nested ones included, none overlapping and all inside the picture', () => {
    expect(diagram.nodes.map((n) => n.ref).sort()).toEqual(
      ['a', 'b1', 'b2', 'body', 'first', 'fork', 'join', 'loop', 'route', 'y'].sort(),
    );
    for (const a of diagram.nodes) {
      expect(a.x).toBeGreaterThanOrEqual(0);
      expect(a.x + a.width).toBeLessThanOrEqual(diagram.width);
      expect(a.y + a.height).toBeLessThanOrEqual(diagram.height);
      for (const b of diagram.nodes) if (a !== b) expect(overlaps(a, b)).toBe(false);
    }
  });

  it('puts fork branches side by side under the fork, in order, and the join below the longest', () => {
    expect(node('a').y).toBe(node('b1').y);
    expect(node('a').x).toBeLessThan(node('b1').x);
    expect(node('b2').y).toBeGreaterThan(node('b1').y);
    expect(node('join').y).toBeGreaterThan(node('b2').y + NODE_HEIGHT);
    expect(node('a').y).toBeGreaterThan(node('fork').y);
  });

  it('labels switch cases and frames a loop body, with an edge back to the loop task', () => {
    const labels = diagram.edges.map((e) => e.label).filter(Boolean);
    expect(labels).toEqual(['yes', 'no', 'default']);
    const frame = diagram.frames.find((f) => f.ref === 'loop');
    expect(frame).toBeDefined();
    const body = node('body');
    expect(body.x).toBeGreaterThan(frame?.x ?? 0);
    expect(body.y + body.height).toBeLessThan((frame?.y ?? 0) + (frame?.height ?? 0));
    expect(diagram.edges.filter((e) => e.loop)).toHaveLength(1);
  });

  it('joins every task to the next with an edge whose ends touch boxes, start or end', () => {
    const first = node('first');
    const edgeIntoFirst = diagram.edges.find((e) => {
      const end = e.points.at(-1);
      return end?.x === first.x + first.width / 2 && end.y === first.y;
    });
    expect(edgeIntoFirst).toBeDefined();
    // Both fork branches lead into the join.
    const join = node('join');
    const intoJoin = diagram.edges.filter((e) => e.points.at(-1)?.y === join.y);
    expect(intoJoin).toHaveLength(2);
  });

  it('lays out an empty definition as start joined to end', () => {
    const empty = layoutDiagram([]);
    expect(empty.nodes).toEqual([]);
    expect(empty.edges).toHaveLength(1);
  });

  it('colours by the latest attempt, counting loop iterations as their task', () => {
    const status = statusByRef([
      { referenceTaskName: 'first', status: 'FAILED', seq: 1 },
      { referenceTaskName: 'first', status: 'COMPLETED', seq: 3 },
      { referenceTaskName: 'body__1', status: 'COMPLETED', seq: 4 },
      { referenceTaskName: 'body__2', status: 'IN_PROGRESS', seq: 5 },
    ]);
    expect(Object.fromEntries(status)).toEqual({ first: 'COMPLETED', body: 'IN_PROGRESS' });
  });
});

describe('the execution actions', () => {
  it('offers what each status allows', () => {
    const offered = (status: string) =>
      (['pause', 'resume', 'terminate', 'retry', 'restart', 'rerun'] as const).filter((a) =>
        allowed(a, status),
      );
    expect(offered('RUNNING')).toEqual(['pause', 'terminate']);
    expect(offered('PAUSED')).toEqual(['resume', 'terminate']);
    expect(offered('FAILED')).toEqual(['retry', 'restart', 'rerun']);
    expect(offered('TERMINATED')).toEqual(['retry', 'restart', 'rerun']);
    expect(offered('COMPLETED')).toEqual(['restart', 'rerun']);
  });
});

describe('the JSON input of forms', () => {
  it('accepts an object or nothing, and names the line and column of a mistake', () => {
    expect(parseObject('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseObject('  ')).toEqual({ ok: true, value: {} });
    expect(parseObject('[1]')).toEqual({ ok: false, problem: 'The input must be a JSON object ({...}).' });
    const bad = parseObject('{\n  "a": 1,\n  oops\n}');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.problem).toMatch(/^Not valid JSON at line 3, column 3/);
  });
});
