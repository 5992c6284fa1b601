// The event handler editor's form and the scheduler history's query, without a browser.
import { describe, expect, it } from 'vitest';
import { formOf, handlerOf, NEW_HANDLER } from '../../../ui/src/pages/event-handlers/handler-form.ts';
import { executionQuery } from '../../../ui/src/pages/schedules/history-query.ts';

describe('the event handler form', () => {
  it('saves the fields shown and keeps the ones it does not show', () => {
    const base = {
      name: 'on_order',
      event: 'conductor:orders',
      actions: [],
      active: false,
      condition: '$.total > 1',
      tags: [{ key: 'team', value: 'shop' }],
    };
    const form = { ...formOf(base), condition: '', description: ' orders in ', active: true };
    form.actions = '[{"action": "complete_task", "complete_task": {"workflowId": "w", "taskRefName": "t"}}]';
    const saved = handlerOf(form, base);
    expect(saved).toEqual({
      ok: true,
      handler: {
        name: 'on_order',
        event: 'conductor:orders',
        active: true,
        description: 'orders in',
        actions: [{ action: 'complete_task', complete_task: { workflowId: 'w', taskRefName: 't' } }],
        tags: [{ key: 'team', value: 'shop' }],
      },
    });
  });

  it('keeps a condition with its evaluator', () => {
    const saved = handlerOf({
      ...NEW_HANDLER,
      name: 'h',
      event: 'sqs:q',
      condition: 'urgent',
      evaluatorType: 'value-param',
    });
    expect(saved.ok && saved.handler).toMatchObject({ condition: 'urgent', evaluatorType: 'value-param' });
  });

  it('says what keeps a handler from saving, before anything is sent', () => {
    expect(handlerOf({ ...NEW_HANDLER, actions: '[{"action": "launch"}' })).toEqual({
      ok: false,
      problems: [
        'Name is required.',
        'Event is required, as <type>:<queue> (for example conductor:orders or sqs:orders).',
        expect.stringMatching(/^Actions: not valid JSON: .*\(line 1, column 22\)$/),
      ],
    });
    const wrong = handlerOf({
      ...NEW_HANDLER,
      name: 'a/b',
      event: 'sqs:q',
      actions: '[{"action": "launch"}]',
    });
    expect(wrong).toEqual({
      ok: false,
      problems: [
        'Name cannot hold / or \\.',
        expect.stringContaining('Actions: item 1 has action "launch"; expected one of start_workflow'),
      ],
    });
    expect(handlerOf({ ...NEW_HANDLER, name: 'h', event: 'sqs:q', actions: '{}' })).toEqual({
      ok: false,
      problems: ['Actions: the JSON must be an array ([ ... ]).'],
    });
  });
});

describe('the scheduler history query', () => {
  it('filters by schedule and states in the scheduler clause syntax', () => {
    expect(executionQuery('', [])).toBeUndefined();
    expect(executionQuery(' nightly ', [])).toBe('scheduleName = "nightly"');
    expect(executionQuery('nightly', ['FAILED', 'POLLED'])).toBe(
      'scheduleName = "nightly" AND state IN (FAILED, POLLED)',
    );
  });
});
