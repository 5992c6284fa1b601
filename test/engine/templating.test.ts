/** Parameter templating (docs/conductor-compat.md §4.8): typed values, splicing, paths, nesting, escapes. */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${...}` strings are the templates under test.
import { describe, expect, it } from 'vitest';
import { readPath } from '../../lib/engine/jsonpath.ts';
import {
  resolveInput,
  resolveParameters,
  type TemplateContext,
  templateRefs,
} from '../../lib/engine/templating.ts';

function context(): TemplateContext {
  return {
    workflow: {
      workflowId: 'wf-1',
      workflowType: 'order_flow',
      version: 3,
      status: 'RUNNING',
      correlationId: null,
      input: { userId: 'u1', key: 'total', count: 2, enabled: true, nested: { a: [1, 2] }, nothing: null },
      output: {},
      variables: { attempt: 1 },
    },
    tasks: {
      t1: {
        taskType: 'SIMPLE',
        status: 'COMPLETED',
        referenceTaskName: 't1',
        retryCount: 0,
        iteration: 0,
        input: {},
        output: {
          total: 7,
          items: [
            { id: 'i1', x: 1, tags: ['a'] },
            { id: 'i2', x: 2, tags: ['b', 'c'] },
            { id: 'i3', x: 3, tags: [] },
          ],
          list: [10, 20, 30],
          'has-dash': true,
          'with.dot': 'dotted',
          template: '${workflow.input.userId}',
          escaped: 'a $${b}',
        },
      },
      loop: { taskType: 'DO_WHILE', status: 'IN_PROGRESS', iteration: 2, output: { '2': { done: true } } },
    },
    taskId: 'task-42',
  };
}

const resolve = (template: unknown, ctx: TemplateContext = context()) => resolveParameters(template, ctx);

describe('resolveParameters', () => {
  describe('a string that is exactly one expression', () => {
    it.each([
      ['a string', '${workflow.input.userId}', 'u1'],
      ['a number', '${t1.output.total}', 7],
      ['a boolean', '${workflow.input.enabled}', true],
      ['an object', '${workflow.input.nested}', { a: [1, 2] }],
      ['an array', '${t1.output.list}', [10, 20, 30]],
      ['a null', '${workflow.input.nothing}', null],
    ])('keeps the JSON type of %s', (_kind, template, expected) => {
      expect(resolve(template)).toStrictEqual(expected);
    });

    it('resolves a missing path to null rather than undefined or the text', () => {
      expect(resolve('${workflow.input.absent}')).toBeNull();
      expect(resolve('${t9.output.x}')).toBeNull();
      expect(resolve('${t1.output.total.deeper}')).toBeNull();
    });

    it('resolves whole task and workflow documents', () => {
      expect(resolve('${workflow.workflowId}')).toBe('wf-1');
      expect(resolve('${t1.status}')).toBe('COMPLETED');
      expect(resolve('${loop.iteration}')).toBe(2);
      expect(resolve('${workflow.variables}')).toStrictEqual({ attempt: 1 });
    });
  });

  describe('a string mixing text and expressions', () => {
    it('splices strings, numbers and booleans as text', () => {
      expect(
        resolve('User ${workflow.input.userId} has ${t1.output.total} items: ${workflow.input.enabled}'),
      ).toBe('User u1 has 7 items: true');
    });

    it('splices objects and arrays as JSON', () => {
      expect(resolve('n=${workflow.input.nested} l=${t1.output.list}')).toBe('n={"a":[1,2]} l=[10,20,30]');
    });

    it('splices missing and null values as the text null', () => {
      expect(resolve('a=${workflow.input.absent} b=${workflow.input.nothing}')).toBe('a=null b=null');
    });

    it('treats two adjacent expressions as text, not as one typed value', () => {
      expect(resolve('${t1.output.total}${t1.output.total}')).toBe('77');
    });

    it('treats an expression with surrounding whitespace as text', () => {
      expect(resolve(' ${t1.output.total}')).toBe(' 7');
    });
  });

  describe('path language', () => {
    it('reads array indexes, including negative ones from the end', () => {
      expect(resolve('${t1.output.items[0].id}')).toBe('i1');
      expect(resolve('${t1.output.items[-1].id}')).toBe('i3');
      expect(resolve('${t1.output.items[9].id}')).toBeNull();
    });

    it('returns the list of matches for a wildcard', () => {
      expect(resolve('${t1.output.items[*].id}')).toStrictEqual(['i1', 'i2', 'i3']);
    });

    it('returns the list of matches for a filter, even for one match or none', () => {
      expect(resolve('${t1.output.items[?(@.x > 1)].id}')).toStrictEqual(['i2', 'i3']);
      expect(resolve("${t1.output.items[?(@.id == 'i2')].x}")).toStrictEqual([2]);
      expect(resolve('${t1.output.items[?(@.x > 9)].id}')).toStrictEqual([]);
    });

    it('supports recursive descent, slices and unions', () => {
      expect(resolve('${t1..id}')).toStrictEqual(['i1', 'i2', 'i3']);
      expect(resolve('${t1.output.list[0:2]}')).toStrictEqual([10, 20]);
      expect(resolve('${t1.output.items[0,2].id}')).toStrictEqual(['i1', 'i3']);
    });

    it('reads bracket-quoted names with dashes and dots', () => {
      expect(resolve("${t1.output['has-dash']}")).toBe(true);
      expect(resolve('${t1.output["with.dot"]}')).toBe('dotted');
      expect(resolve("${loop.output['2'].done}")).toBe(true);
    });

    it('accepts an explicit leading $.', () => {
      expect(resolve('${$.t1.output.total}')).toBe(7);
    });

    it('ignores whitespace around the path', () => {
      expect(resolve('${  t1.output.total  }')).toBe(7);
    });

    it('computes length() of a list, a map and a list of matches', () => {
      expect(resolve('${t1.output.list.length()}')).toBe(3);
      expect(resolve('${workflow.input.nested.length()}')).toBe(1);
      expect(resolve('${t1.output.items[?(@.x >= 2)].length()}')).toBe(2);
      expect(resolve('count: ${t1.output.items.length()}')).toBe('count: 3');
    });

    it('gives null for length() of a missing path or a scalar', () => {
      expect(resolve('${t1.output.absent.length()}')).toBeNull();
      expect(resolve('${t1.output.total.length()}')).toBeNull();
    });

    it.each([
      ['size', 3],
      ['min', 10],
      ['max', 30],
      ['sum', 60],
      ['avg', 20],
      ['first', 10],
      ['last', 30],
    ])('supports the Jayway function %s()', (fn, expected) => {
      expect(resolve(`\${t1.output.list.${fn}()}`)).toBe(expected);
    });

    it('supports stddev() and keys()', () => {
      expect(resolve('${t1.output.list.stddev()}')).toBeCloseTo(8.165, 3);
      expect(resolve('${workflow.input.nested.keys()}')).toStrictEqual(['a']);
    });

    it('does not treat a length property as an array length', () => {
      expect(resolve('${t1.output.list.length}')).toBeNull();
    });

    it('never reads inherited properties such as constructor or __proto__', () => {
      expect(resolve('${t1.output.constructor}')).toBeNull();
      expect(resolve('${t1.output.__proto__}')).toBeNull();
      expect(resolve('${toString}')).toBeNull();
      expect(resolve('${t1.output.items[*].constructor}')).toStrictEqual([]);
    });

    it('suppresses malformed paths to null', () => {
      expect(resolve('${t1.output.items[}')).toBeNull();
      expect(resolve('${t1.output.items[0}')).toBeNull();
      expect(resolve("${t1.output['x}")).toBeNull();
      expect(resolve('${t1.output.items[?(@.x > 1]}')).toBeNull();
      expect(resolve('${t1.output.items]}')).toBeNull();
    });

    it('treats a filter expression that fails to evaluate as matching nothing', () => {
      expect(resolve('${t1.output.items[?(@.x >)]}')).toStrictEqual([]);
    });

    it('skips list items that lack a property a filter reads', () => {
      expect(resolve('${t1.output.items[?(@.meta.level > 1)].id}')).toStrictEqual([]);
      const ctx = context();
      (ctx.tasks.t1 as { output: { items: unknown[] } }).output.items.push({ id: 'i4', meta: { level: 2 } });
      expect(resolve('${t1.output.items[?(@.meta.level > 1)].id}', ctx)).toStrictEqual(['i4']);
    });

    it('does not run code smuggled into a filter', () => {
      const exploit = "${t1.output.items[?(@.constructor.constructor('return process')().exit(7))]}";
      expect(resolve(exploit)).toStrictEqual([]);
    });
  });

  describe('nesting, blanks and escapes', () => {
    it('resolves nested expressions first and uses them as part of the path', () => {
      expect(resolve('${t1.output.${workflow.input.key}}')).toBe(7);
      expect(resolve('${t1.output.items[${workflow.input.count}].id}')).toBe('i3');
    });

    it('resolves a nested expression that is missing to the text null inside the path', () => {
      expect(resolve('${t1.output.${workflow.input.absent}}')).toBeNull();
    });

    it('turns an empty or blank expression into an empty string', () => {
      expect(resolve('${}')).toBe('');
      expect(resolve('${   }')).toBe('');
      expect(resolve('a${}b')).toBe('ab');
    });

    it('turns the escape $${x} into the literal ${x}', () => {
      expect(resolve('$${workflow.input.userId}')).toBe('${workflow.input.userId}');
      expect(resolve('cost: $${x} for ${workflow.input.userId}')).toBe('cost: ${x} for u1');
    });

    it('keeps a dollar before an escape', () => {
      expect(resolve('$$${x}')).toBe('$${x}');
    });

    it('leaves text without a closing brace as written', () => {
      expect(resolve('${workflow.input.userId')).toBe('${workflow.input.userId');
      expect(resolve('price $5 and ${ workflow.input.userId')).toBe('price $5 and ${ workflow.input.userId');
    });

    it('does not re-resolve or unescape templates found inside resolved values', () => {
      expect(resolve('${t1.output.template}')).toBe('${workflow.input.userId}');
      expect(resolve('v=${t1.output.escaped}')).toBe('v=a $${b}');
    });
  });

  describe('special names', () => {
    it('resolves ${CPEWF_TASK_ID} to the id of the task being built', () => {
      expect(resolve('${CPEWF_TASK_ID}')).toBe('task-42');
      expect(resolve('id-${CPEWF_TASK_ID}')).toBe('id-task-42');
    });

    it('resolves ${CPEWF_TASK_ID} to null when no task id is given', () => {
      const { taskId: _taskId, ...ctx } = context();
      expect(resolve('${CPEWF_TASK_ID}', ctx)).toBeNull();
    });

    it('resolves workflow.env to null without reading the environment', () => {
      process.env.TEMPLATING_TEST_VAR = 'leaked';
      try {
        expect(resolve('${workflow.env.TEMPLATING_TEST_VAR}')).toBeNull();
        expect(resolve("${workflow['env'].TEMPLATING_TEST_VAR}")).toBeNull();
        expect(resolve('x=${workflow.env.TEMPLATING_TEST_VAR}')).toBe('x=null');
      } finally {
        delete process.env.TEMPLATING_TEST_VAR;
      }
    });

    it('resolves workflow.env to null even when the context carries an env map', () => {
      const ctx = context();
      ctx.workflow.env = { X: 'from-context' };
      expect(resolve('${workflow.env.X}', ctx)).toBeNull();
    });

    it('does not leak process environment variables such as ${HOME} and ${PATH}', () => {
      expect(process.env.PATH).toBeTruthy();
      expect(resolve('${HOME}')).toBeNull();
      expect(resolve('${PATH}')).toBeNull();
      expect(resolve('${TEMPLATING_TEST_VAR}')).toBeNull();
      expect(resolve('home=${HOME} path=${PATH}')).toBe('home=null path=null');
    });

    it('resolves a bare name that is a task reference to that task', () => {
      const ctx = context();
      ctx.tasks.HOME = { output: { v: 1 } };
      expect(resolve('${HOME.output.v}', ctx)).toBe(1);
    });

    it('leaves workflow.secrets expressions literal for resolution at poll time', () => {
      expect(resolve('${workflow.secrets.apiKey}')).toBe('${workflow.secrets.apiKey}');
      expect(resolve('Bearer ${workflow.secrets.token} for ${workflow.input.userId}')).toBe(
        'Bearer ${workflow.secrets.token} for u1',
      );
      expect(resolve("${workflow.secrets['db-pass']}")).toBe("${workflow.secrets['db-pass']}");
    });

    it('leaves an expression literal when a nested part is a secret', () => {
      expect(resolve('${t1.output.${workflow.secrets.k}}')).toBe('${t1.output.${workflow.secrets.k}}');
    });

    it('does not mistake a name that merely starts with env or secrets for the special paths', () => {
      const ctx = context();
      ctx.workflow.environment = 'prod';
      ctx.workflow.secretsCount = 2;
      expect(resolve('${workflow.environment}', ctx)).toBe('prod');
      expect(resolve('${workflow.secretsCount}', ctx)).toBe(2);
    });

    it('lets workflow win over a task whose reference name is workflow', () => {
      const ctx = context();
      ctx.tasks.workflow = { workflowId: 'impostor' };
      expect(resolve('${workflow.workflowId}', ctx)).toBe('wf-1');
      expect(resolve('${workflow[*]}', ctx)).toContain('wf-1');
    });
  });

  describe('structures', () => {
    it('walks nested maps and lists and passes non-strings through', () => {
      const template = {
        user: '${workflow.input.userId}',
        n: 5,
        flag: false,
        none: null,
        list: ['${t1.output.total}', 1, { deep: ['x-${workflow.input.userId}', '${t1.output.list}'] }],
      };
      expect(resolve(template)).toStrictEqual({
        user: 'u1',
        n: 5,
        flag: false,
        none: null,
        list: [7, 1, { deep: ['x-u1', [10, 20, 30]] }],
      });
    });

    it('resolves a top-level list and a plain string', () => {
      expect(resolve(['${t1.output.total}', 'plain'])).toStrictEqual([7, 'plain']);
      expect(resolve('plain $ text')).toBe('plain $ text');
      expect(resolve(12)).toBe(12);
    });

    it('does not mutate the template', () => {
      const template = {
        a: '${t1.output.items}',
        b: ['${workflow.input.userId}', { c: '${t1.output.total}' }],
      };
      const before = structuredClone(template);
      const result = resolve(template);
      expect(template).toStrictEqual(before);
      expect(result).not.toBe(template);
    });

    it('does not resolve keys, only values', () => {
      expect(resolve({ '${workflow.input.userId}': 1 })).toStrictEqual({ '${workflow.input.userId}': 1 });
    });

    it('returns copies, so changing a result never changes the context', () => {
      const ctx = context();
      const result = resolve({ items: '${t1.output.items}', sel: '${t1.output.items[*].tags}' }, ctx);
      (result as { items: { id: string }[] }).items[0] = { id: 'changed' };
      (result as { sel: string[][] }).sel[1]?.push('z');
      expect(resolve('${t1.output.items[0].id}', ctx)).toBe('i1');
      expect(resolve('${t1.output.items[1].tags}', ctx)).toStrictEqual(['b', 'c']);
    });

    it('keeps a __proto__ key as data rather than a prototype', () => {
      const template: unknown = JSON.parse('{"__proto__": {"polluted": "${workflow.input.userId}"}}');
      const result = resolve(template) as Record<string, unknown>;
      expect(Object.hasOwn(result, '__proto__')).toBe(true);
      expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(JSON.stringify(result)).toBe('{"__proto__":{"polluted":"u1"}}');
    });

    it('sees context changes between calls even for a cached template', () => {
      const ctx = context();
      expect(resolve('${t1.output.total}', ctx)).toBe(7);
      (ctx.tasks.t1 as { output: { total: number } }).output.total = 8;
      expect(resolve('${t1.output.total}', ctx)).toBe(8);
      expect(resolve('${t1.output.items[?(@.x > 2)].id}', ctx)).toStrictEqual(['i3']);
      ctx.tasks.t1 = { output: { items: [{ id: 'n1', x: 5 }] } };
      expect(resolve('${t1.output.items[?(@.x > 2)].id}', ctx)).toStrictEqual(['n1']);
    });
  });
});

describe('resolveInput', () => {
  it('resolves a map of input parameters into a new map', () => {
    const input = { user: '${workflow.input.userId}', total: '${t1.output.total}' };
    const result = resolveInput(input, context());
    expect(result).toStrictEqual({ user: 'u1', total: 7 });
    expect(result).not.toBe(input);
  });

  it('returns an empty map when there are no input parameters', () => {
    expect(resolveInput(undefined, context())).toStrictEqual({});
  });
});

describe('readPath', () => {
  const root = {
    lookup: (name: string) => (name === 'a' ? { b: [{ c: 1 }] } : undefined),
    document: () => ({ a: { b: [{ c: 1 }] } }),
  };

  it('walks plain paths without building the merged document', () => {
    const strictRoot = {
      lookup: root.lookup,
      document: (): Record<string, unknown> => {
        throw new Error('document() should not be needed for a plain path');
      },
    };
    expect(readPath('a.b[0].c', strictRoot)).toBe(1);
    expect(readPath("a['b'][0]['c']", strictRoot)).toBe(1);
    expect(readPath('a.b[0].missing', strictRoot)).toBeNull();
  });

  it('uses the merged document for wildcard paths', () => {
    expect(readPath('a.b[*].c', root)).toStrictEqual([1]);
  });
});

describe('templateRefs: the references a definition reads from', () => {
  const refsOf = (value: unknown) => {
    const { names, any } = templateRefs(value);
    return { names: [...names].sort(), any };
  };

  it('names the first name of every path, in any value, nested ones included', () => {
    expect(
      refsOf({
        a: '${t1.output.x}',
        b: ['text ${ t2 .input} and ${workflow.input.k}', { c: "${$['t3'].output}" }],
        d: '${t4.output.${workflow.input.key}}',
        e: '${CPEWF_TASK_ID}',
        f: '$${escaped.output}',
        g: 42,
      }),
    ).toEqual({ names: ['CPEWF_TASK_ID', 't1', 't2', 't3', 't4', 'workflow'], any: false });
  });

  it('says any when a path finds its first name only when read', () => {
    expect(refsOf('${${workflow.input.ref}.output}')).toEqual({ names: ['workflow'], any: true });
    expect(refsOf('${$..result}').any).toBe(true);
    expect(refsOf('${[*].output}').any).toBe(true);
    expect(refsOf('${t1${workflow.input.suffix}.output}').any).toBe(true);
  });
});
