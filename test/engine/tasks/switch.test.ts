/**
 * SWITCH and DECISION through the in-memory engine (docs/conductor-compat.md §5.4, §5.5): how the
 * case is evaluated, which branch runs, where the run goes after the branch, and the errors.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createQuickJsEvaluator, type ScriptEvaluator } from '../../../lib/engine/script/evaluator.ts';
import { normalizeWorkflowDef } from '../../../lib/metadata/workflow-def.ts';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { type Json, ref, worker } from '../../helpers/fixtures.ts';

const switchOn = (name: string, fields: Json): Json => ({
  name,
  taskReferenceName: name,
  type: 'SWITCH',
  ...fields,
});

const byKind = (cases: Record<string, Json[]>, defaultCase?: Json[]): Json =>
  switchOn('route', {
    evaluatorType: 'value-param',
    expression: 'kind',
    inputParameters: { kind: ref('workflow.input.kind') },
    decisionCases: cases,
    ...(defaultCase ? { defaultCase } : {}),
  });

// One sandbox for the whole file: starting its worker thread costs more than most tests here.
let scripts: ScriptEvaluator;
beforeAll(() => {
  scripts = createQuickJsEvaluator();
});
afterAll(() => scripts.close());

describe('SWITCH', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness({ scripts });
  });
  afterEach(() => h.close());

  async function refs(id: string): Promise<[string, string][]> {
    return (await h.tasks(id)).map((t) => [t.referenceTaskName, t.status]);
  }

  it('with value-param picks the branch named by an input parameter and records the case', async () => {
    await h.register({
      name: 'route_by_kind',
      tasks: [byKind({ book: [worker('ship_book')], song: [worker('stream_song')] }), worker('after')],
    });
    const id = await h.start('route_by_kind', { kind: 'book' });
    const route = await h.task(id, 'route');
    expect(route?.status).toBe('COMPLETED');
    expect(route?.inputData).toEqual({ kind: 'book', case: 'book', hasChildren: 'true' });
    expect(route?.outputData).toEqual({ evaluationResult: ['book'], selectedCase: 'book' });
    expect(await refs(id)).toEqual([
      ['route', 'COMPLETED'],
      ['ship_book', 'SCHEDULED'],
    ]);
  });

  it('continues after the switch once the last task of the branch is done', async () => {
    await h.register({
      name: 'route_then_after',
      tasks: [byKind({ book: [worker('pack'), worker('ship')] }), worker('after')],
    });
    const id = await h.start('route_then_after', { kind: 'book' });
    await h.work('pack');
    expect(await h.poll('after')).toBeUndefined();
    await h.work('ship');
    await h.work('after');
    expect(await refs(id)).toEqual([
      ['route', 'COMPLETED'],
      ['pack', 'COMPLETED'],
      ['ship', 'COMPLETED'],
      ['after', 'COMPLETED'],
    ]);
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('with javascript picks the branch named by the stringified result of the expression', async () => {
    await h.register({
      name: 'route_by_size',
      tasks: [
        switchOn('route', {
          evaluatorType: 'javascript',
          expression: '$.n > 10',
          inputParameters: { n: ref('workflow.input.n') },
          decisionCases: { true: [worker('big')], false: [worker('small')] },
        }),
      ],
    });
    const id = await h.start('route_by_size', { n: 50 });
    expect((await h.task(id, 'route'))?.outputData.selectedCase).toBe('true');
    expect(await h.poll('small')).toBeUndefined();
    expect(await h.poll('big')).toBeDefined();
  });

  it('runs the default case when no key matches', async () => {
    await h.register({
      name: 'route_default',
      tasks: [byKind({ book: [worker('ship_book')] }, [worker('fallback')])],
    });
    const id = await h.start('route_default', { kind: 'car' });
    expect(await refs(id)).toEqual([
      ['route', 'COMPLETED'],
      ['fallback', 'SCHEDULED'],
    ]);
  });

  it('reads a missing value-param input as the case "null"', async () => {
    await h.register({
      name: 'route_null',
      tasks: [byKind({ null: [worker('nothing_given')] }, [worker('fallback')])],
    });
    const id = await h.start('route_null', {});
    expect((await h.task(id, 'route'))?.outputData.selectedCase).toBe('null');
    expect(await h.poll('nothing_given')).toBeDefined();
  });

  it('runs nothing for a matching empty branch, without falling back to the default, and goes on', async () => {
    await h.register({
      name: 'route_empty',
      tasks: [byKind({ skip: [], book: [worker('ship_book')] }, [worker('fallback')]), worker('after')],
    });
    const id = await h.start('route_empty', { kind: 'skip' });
    const route = await h.task(id, 'route');
    expect(route?.inputData.hasChildren).toBeUndefined();
    expect(await refs(id)).toEqual([
      ['route', 'COMPLETED'],
      ['after', 'SCHEDULED'],
    ]);
  });

  it('goes straight on when nothing matches and there is no default case', async () => {
    await h.register({
      name: 'route_none',
      tasks: [byKind({ book: [worker('ship_book')] }), worker('after')],
    });
    const id = await h.start('route_none', { kind: 'car' });
    expect(await refs(id)).toEqual([
      ['route', 'COMPLETED'],
      ['after', 'SCHEDULED'],
    ]);
  });

  it('continues after the outer switch when a branch of a nested switch ends', async () => {
    const inner = switchOn('inner', {
      evaluatorType: 'value-param',
      expression: 'size',
      inputParameters: { size: ref('workflow.input.size') },
      decisionCases: { large: [worker('crate')] },
      defaultCase: [worker('envelope')],
    });
    await h.register({
      name: 'nested_route',
      tasks: [byKind({ book: [inner, worker('label')] }), worker('after')],
    });
    const id = await h.start('nested_route', { kind: 'book', size: 'large' });
    await h.work('crate');
    await h.work('label');
    await h.work('after');
    expect(await refs(id)).toEqual([
      ['route', 'COMPLETED'],
      ['inner', 'COMPLETED'],
      ['crate', 'COMPLETED'],
      ['label', 'COMPLETED'],
      ['after', 'COMPLETED'],
    ]);
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('ends the run with the output of the branch task when the switch is the last task', async () => {
    await h.register({
      name: 'route_last',
      tasks: [byKind({ book: [worker('ship_book')] })],
    });
    const id = await h.start('route_last', { kind: 'book' });
    await h.work('ship_book', { tracking: 'T-1' });
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(run.output).toEqual({ tracking: 'T-1' });
  });

  it('fails, without a retry, and fails the run when its script throws', async () => {
    await h.register({
      name: 'route_throws',
      tasks: [
        switchOn('route', {
          evaluatorType: 'javascript',
          expression: '$.missing.field',
          decisionCases: { a: [worker('a')] },
        }),
      ],
    });
    const id = await h.start('route_throws');
    const rows = await h.tasks(id);
    expect(rows.map((t) => [t.referenceTaskName, t.status])).toEqual([['route', 'FAILED']]);
    expect(rows[0]?.reasonForIncompletion).toContain('Error while evaluating script');
    const run = await h.run(id);
    expect(run.status).toBe('FAILED');
    expect(run.failedReferenceTaskNames).toEqual(['route']);
  });

  it('fails with a terminal error for an evaluator it does not have', async () => {
    // Registration refuses such an evaluator, so the definition goes straight to the store.
    const def = normalizeWorkflowDef({
      name: 'route_python',
      tasks: [switchOn('route', { evaluatorType: 'python', expression: 'x', decisionCases: { a: [] } })],
    });
    await h.stores.workflowDefs.put(def, { overwrite: true });
    const id = await h.start('route_python');
    const route = await h.task(id, 'route');
    expect(route?.status).toBe('FAILED_WITH_TERMINAL_ERROR');
    expect(route?.reasonForIncompletion).toContain('python');
    expect((await h.run(id)).status).toBe('FAILED');
  });
});

describe('DECISION', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness({ scripts });
  });
  afterEach(() => h.close());

  const decision = (fields: Json): Json => ({
    name: 'decide',
    taskReferenceName: 'decide',
    type: 'DECISION',
    inputParameters: { kind: ref('workflow.input.kind') },
    ...fields,
  });

  it('picks the branch from caseValueParam and reports it as caseOutput', async () => {
    await h.register({
      name: 'decide_by_param',
      tasks: [decision({ caseValueParam: 'kind', decisionCases: { book: [worker('ship_book')] } })],
    });
    const id = await h.start('decide_by_param', { kind: 'book' });
    const task = await h.task(id, 'decide');
    expect(task?.status).toBe('COMPLETED');
    expect(task?.outputData).toEqual({ caseOutput: ['book'] });
    expect(task?.inputData.case).toBe('book');
    expect(await h.poll('ship_book')).toBeDefined();
  });

  it('picks the branch from a caseExpression script', async () => {
    await h.register({
      name: 'decide_by_script',
      tasks: [
        decision({
          caseExpression: '$.kind.toUpperCase()',
          decisionCases: { BOOK: [worker('ship_book')], book: [worker('lowercase')] },
        }),
      ],
    });
    const id = await h.start('decide_by_script', { kind: 'book' });
    expect((await h.task(id, 'decide'))?.outputData).toEqual({ caseOutput: ['BOOK'] });
    expect(await h.poll('ship_book')).toBeDefined();
  });

  it('falls back to the default case when the matching branch is empty, unlike SWITCH', async () => {
    await h.register({
      name: 'decide_empty',
      tasks: [
        decision({ caseValueParam: 'kind', decisionCases: { skip: [] }, defaultCase: [worker('fallback')] }),
      ],
    });
    const id = await h.start('decide_empty', { kind: 'skip' });
    expect((await h.tasks(id)).map((t) => t.referenceTaskName)).toEqual(['decide', 'fallback']);
  });

  it('falls back to the default case when no key matches', async () => {
    await h.register({
      name: 'decide_missing',
      tasks: [
        decision({
          caseValueParam: 'kind',
          decisionCases: { book: [worker('ship_book')] },
          defaultCase: [worker('fallback')],
        }),
      ],
    });
    const id = await h.start('decide_missing', { kind: 'car' });
    expect((await h.tasks(id)).map((t) => t.referenceTaskName)).toEqual(['decide', 'fallback']);
  });
});
