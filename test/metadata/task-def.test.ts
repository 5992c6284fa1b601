/**
 * Task definition validation and defaults (lib/metadata/task-def.ts, docs/conductor-compat.md §0.3).
 */
import { describe, expect, it } from 'vitest';
import {
  checkTaskDef,
  normalizeTaskDef,
  validateTaskDef,
  validateTaskDefs,
} from '../../lib/metadata/task-def.ts';
import { type FieldError, ValidationError } from '../../lib/model/errors.ts';
import { Issues } from '../../lib/validation/issues.ts';
import { type Json, taskDef } from '../helpers/fixtures.ts';

function problemsOf(value: Json): FieldError[] {
  const issues = new Issues();
  const ok = checkTaskDef(issues, value, '');
  expect(ok).toBe(issues.empty);
  return issues.list;
}

describe('checkTaskDef', () => {
  it('accepts a definition with only a name', () => {
    expect(problemsOf(taskDef())).toEqual([]);
  });

  it.each([
    ['retryCount', -1, 'must be greater than or equal to 0'],
    ['retryCount', 1.5, 'must be an integer'],
    ['responseTimeoutSeconds', 0, 'must be greater than or equal to 1'],
    ['pollTimeoutSeconds', -1, 'must be greater than or equal to 0'],
    ['maxRetryDelaySeconds', -1, 'must be greater than or equal to 0'],
    ['backoffJitterMs', -1, 'must be greater than or equal to 0'],
    ['totalTimeoutSeconds', -1, 'must be greater than or equal to 0'],
    ['backoffScaleFactor', 0, 'must be greater than or equal to 1'],
    ['timeoutSeconds', '60', 'must be an integer'],
    ['inputKeys', 'a,b', 'must be an array'],
    ['inputTemplate', 'text', 'must be an object'],
    ['description', 5, 'must be a string'],
    ['timeoutPolicy', 'NEVER', 'must be one of RETRY, TIME_OUT_WF, ALERT_ONLY'],
    ['retryLogic', 'RANDOM', 'must be one of FIXED, EXPONENTIAL_BACKOFF, LINEAR_BACKOFF'],
  ])('rejects %s = %j', (field, value, message) => {
    expect(problemsOf(taskDef({ [field]: value }))).toEqual([{ path: field, message, invalidValue: value }]);
  });

  it('does not echo an object or a list as the invalid value', () => {
    expect(problemsOf(taskDef({ description: { a: 1 } }))).toEqual([
      { path: 'description', message: 'must be a string' },
    ]);
    expect(problemsOf(taskDef({ inputTemplate: [] }))).toEqual([
      { path: 'inputTemplate', message: 'must be an object' },
    ]);
  });

  it('rejects a blank name', () => {
    expect(problemsOf(taskDef({ name: '  ' })).map((p) => p.path)).toEqual(['name']);
  });

  it('rejects a responseTimeoutSeconds above a positive timeoutSeconds, counting the 3600 default', () => {
    expect(problemsOf(taskDef({ name: 't', timeoutSeconds: 10 }))).toEqual([
      {
        path: 'responseTimeoutSeconds',
        message: 'TaskDef: t responseTimeoutSeconds: 3600 must be less than timeoutSeconds: 10',
        invalidValue: 3600,
      },
    ]);
    expect(problemsOf(taskDef({ timeoutSeconds: 10, responseTimeoutSeconds: 10 }))).toEqual([]);
  });

  it('ignores the response timeout when timeoutSeconds is 0', () => {
    expect(problemsOf(taskDef({ timeoutSeconds: 0, responseTimeoutSeconds: 99_999 }))).toEqual([]);
  });

  it('rejects a timeoutSeconds above a positive totalTimeoutSeconds', () => {
    const problems = problemsOf(
      taskDef({ timeoutSeconds: 100, responseTimeoutSeconds: 10, totalTimeoutSeconds: 50 }),
    );
    expect(problems.map((p) => p.path)).toEqual(['timeoutSeconds']);
    expect(problems[0]?.message).toMatch(
      /timeoutSeconds: 100 must be less than or equal to totalTimeoutSeconds: 50/,
    );
  });

  it('prefixes paths and names a non-object by its position', () => {
    const issues = new Issues();
    checkTaskDef(issues, taskDef({ retryCount: -1 }), '[2].');
    checkTaskDef(issues, 'text', '[3].');
    expect(issues.list.map((p) => p.path)).toEqual(['[2].retryCount', '[3]']);
  });
});

describe('normalizeTaskDef', () => {
  it("fills Conductor's defaults", () => {
    expect(normalizeTaskDef({ name: ' t ' })).toEqual({
      name: 't',
      retryCount: 3,
      retryLogic: 'FIXED',
      retryDelaySeconds: 60,
      backoffScaleFactor: 1,
      timeoutSeconds: 0,
      timeoutPolicy: 'TIME_OUT_WF',
      responseTimeoutSeconds: 3600,
      inputKeys: [],
      outputKeys: [],
      inputTemplate: {},
      rateLimitPerFrequency: 0,
      rateLimitFrequencyInSeconds: 1,
    });
  });

  it('keeps given values, including zeros, and drops client-sent audit fields', () => {
    const def = normalizeTaskDef({
      name: 't',
      retryCount: 0,
      retryDelaySeconds: 0,
      createTime: 5,
      updateTime: 6,
    });
    expect(def).toMatchObject({ retryCount: 0, retryDelaySeconds: 0 });
    expect(def).not.toHaveProperty('createTime');
    expect(def).not.toHaveProperty('updateTime');
  });
});

describe('validateTaskDefs', () => {
  const rejection = (body: unknown): ValidationError => {
    try {
      validateTaskDefs(body);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      return error as ValidationError;
    }
    throw new Error('expected the task definitions to be rejected');
  };

  it('normalizes every definition of a valid list', () => {
    expect(
      validateTaskDefs([taskDef({ name: 'a' }), taskDef({ name: 'b' })]).map((d) => d.retryCount),
    ).toEqual([3, 3]);
  });

  it('rejects a list with any invalid definition, listing every problem', () => {
    const error = rejection([taskDef({ retryCount: -1 }), taskDef(), taskDef({ name: '' })]);
    expect(error.message).toMatch(/^The task definitions are not valid: \[0\]\.retryCount/);
    expect(error.validationErrors.map((p) => p.path)).toEqual(['[0].retryCount', '[2].name']);
  });

  it('rejects an empty list and a body that is not a list', () => {
    expect(rejection([]).validationErrors).toEqual([
      { path: 'body', message: 'must contain at least one task definition' },
    ]);
    expect(rejection(taskDef()).validationErrors.map((p) => p.path)).toEqual(['body']);
    expect(rejection(undefined).validationErrors.map((p) => p.path)).toEqual(['body']);
  });
});

describe('validateTaskDef', () => {
  it('rejects a body that is not an object under the path body', () => {
    expect(() => validateTaskDef([taskDef()])).toThrow(
      expect.objectContaining({ validationErrors: [expect.objectContaining({ path: 'body' })] }),
    );
  });

  it('answers the normalized definition', () => {
    expect(validateTaskDef(taskDef({ name: 'one' }))).toMatchObject({ name: 'one', retryLogic: 'FIXED' });
  });
});
