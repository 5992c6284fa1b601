// The schedule editor's form logic without a browser: a schedule read into the form and saved
// back keeps what the form does not show, and bad input is refused with every problem named.
import { describe, expect, it } from 'vitest';
import type { WorkflowSchedule } from '../../../ui/src/api/routes.ts';
import { formOf, NEW_SCHEDULE, scheduleOf } from '../../../ui/src/pages/schedules/schedule-form.ts';

const stored: WorkflowSchedule = {
  name: 'nightly',
  cronExpression: '0 0 2 * * *',
  zoneId: 'Europe/Paris',
  startWorkflowRequest: { name: 'report', version: 2, input: { full: true }, taskToDomain: { a: 'b' } },
  runCatchupScheduleInstances: true,
  paused: false,
  scheduleStartTime: 1_700_000_000_000,
  createTime: 1,
  createdBy: 'ops',
  nextRunTime: 123,
};

describe('the schedule form', () => {
  it('round-trips a schedule, keeping fields the form does not show and dropping the computed next run', () => {
    const result = scheduleOf(formOf(stored), stored);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { nextRunTime, description, ...rest } = stored;
    expect(result.schedule).toEqual({ ...rest, description: undefined });
    expect(nextRunTime).toBe(123);
    expect(description).toBeUndefined();
  });

  it('applies edits: cron, zone, version cleared to latest, input, correlation id, paused', () => {
    const form = {
      ...formOf(stored),
      cronExpression: ' 0 */5 * * * * ',
      zoneId: '',
      workflowVersion: '',
      input: '{"x": 1}',
      correlationId: 'c-1',
      paused: true,
    };
    const result = scheduleOf(form, stored);
    if (!result.ok) throw new Error(result.problems.join());
    expect(result.schedule.cronExpression).toBe('0 */5 * * * *');
    expect(result.schedule.zoneId).toBe('UTC');
    expect(result.schedule.paused).toBe(true);
    expect(result.schedule.startWorkflowRequest).toEqual({
      name: 'report',
      input: { x: 1 },
      correlationId: 'c-1',
      taskToDomain: { a: 'b' },
    });
  });

  it('keeps several cron schedules as they are', () => {
    const many = {
      ...stored,
      cronExpression: undefined,
      cronSchedules: [
        { cronExpression: '0 0 1 * * *', zoneId: 'UTC' },
        { cronExpression: '0 0 13 * * *', zoneId: 'UTC' },
      ],
    };
    const form = formOf(many);
    expect(form.cronExpression).toBe('0 0 1 * * *');
    const result = scheduleOf({ ...form, cronExpression: 'ignored' }, many);
    if (!result.ok) throw new Error(result.problems.join());
    expect(result.schedule.cronSchedules).toEqual(many.cronSchedules);
    expect(result.schedule.cronExpression).toBeUndefined();
  });

  it('names every problem of a bad form and saves nothing', () => {
    const result = scheduleOf({ ...NEW_SCHEDULE, cronExpression: ' ', workflowVersion: '1.5', input: '{' });
    expect(result).toEqual({
      ok: false,
      problems: [
        'Name is required.',
        'Cron expression is required.',
        'Workflow name is required.',
        'Workflow version must be a positive whole number.',
        expect.stringMatching(/^Input: Not valid JSON/),
      ],
    });
  });
});
