/**
 * Spring's cron dialect (docs/features/scheduler.md "Cron"), the one Conductor's scheduler parses:
 * a table of expressions and their next fire times. The expected times were worked out by hand
 * from Spring's rules (CronExpression, BitsCronField, QuartzCronField) and a calendar of 2026-2027
 * (2026-01-01 is a Thursday), not by running this service's code.
 */
import { describe, expect, it } from 'vitest';
import { cronProblem, fireTimesBefore, fireTimesBetween, nextAtOrAfter } from '../../lib/scheduler/cron.ts';

const at = (iso: string): number => Date.parse(iso.endsWith('Z') ? iso : `${iso}Z`);
const JAN_1 = at('2026-01-01T00:00:00');

/** [expression, zone, from, the next fire times at or after `from`, as UTC instants] */
const table: [string, string, number, string[]][] = [
  // A step from a number counts from it to the field's end (seconds 0, 5, 10...).
  ['0/5 * * ? * *', 'UTC', JAN_1, ['2026-01-01T00:00:00', '2026-01-01T00:00:05', '2026-01-01T00:00:10']],
  [
    '10/20 * * * * *',
    'UTC',
    JAN_1,
    ['2026-01-01T00:00:10', '2026-01-01T00:00:30', '2026-01-01T00:00:50', '2026-01-01T00:01:10'],
  ],
  [
    '0 0/30 8-10 * * *',
    'UTC',
    JAN_1,
    [
      '2026-01-01T08:00:00',
      '2026-01-01T08:30:00',
      '2026-01-01T09:00:00',
      '2026-01-01T09:30:00',
      '2026-01-01T10:00:00',
      '2026-01-01T10:30:00',
      '2026-01-02T08:00:00',
    ],
  ],
  ['*/15 * * * * *', 'UTC', at('2026-01-01T00:00:01'), ['2026-01-01T00:00:15', '2026-01-01T00:00:30']],
  [
    '0 0 0 1/10 * *',
    'UTC',
    JAN_1,
    [
      '2026-01-01T00:00:00',
      '2026-01-11T00:00:00',
      '2026-01-21T00:00:00',
      '2026-01-31T00:00:00',
      '2026-02-01T00:00:00',
    ],
  ],
  [
    '0 0 0 1 */4 ?',
    'UTC',
    JAN_1,
    ['2026-01-01T00:00:00', '2026-05-01T00:00:00', '2026-09-01T00:00:00', '2027-01-01T00:00:00'],
  ],
  // Names, in any case; 9-17 on weekdays (Friday evening to Monday).
  [
    '0 0 9-17 * * MON-FRI',
    'UTC',
    at('2026-01-02T16:30:00'),
    ['2026-01-02T17:00:00', '2026-01-05T09:00:00', '2026-01-05T10:00:00'],
  ],
  ['0 0 12 1 jan,JUL ?', 'UTC', JAN_1, ['2026-01-01T12:00:00', '2026-07-01T12:00:00', '2027-01-01T12:00:00']],
  ['0 0 0 25 12 ?', 'UTC', JAN_1, ['2026-12-25T00:00:00', '2027-12-25T00:00:00']],
  // Day-of-week steps count over Monday (1) to Sunday (7): */2 is Monday, Wednesday, Friday, Sunday.
  [
    '0 0 0 * * */2',
    'UTC',
    JAN_1,
    ['2026-01-02T00:00:00', '2026-01-04T00:00:00', '2026-01-05T00:00:00', '2026-01-07T00:00:00'],
  ],
  // 0/3 counts from Sunday as 0: Sunday, Wednesday, Saturday.
  [
    '0 0 0 ? * 0/3',
    'UTC',
    JAN_1,
    ['2026-01-03T00:00:00', '2026-01-04T00:00:00', '2026-01-07T00:00:00', '2026-01-10T00:00:00'],
  ],
  // A range starting at SUN (7) starts at Sunday (0).
  [
    '0 0 0 * * SUN-TUE',
    'UTC',
    JAN_1,
    ['2026-01-04T00:00:00', '2026-01-05T00:00:00', '2026-01-06T00:00:00', '2026-01-11T00:00:00'],
  ],
  // Both day fields restricted: both apply (Friday the 13th).
  ['0 0 0 13 * FRI', 'UTC', JAN_1, ['2026-02-13T00:00:00', '2026-03-13T00:00:00', '2026-11-13T00:00:00']],
  ['0 0 0 L * *', 'UTC', JAN_1, ['2026-01-31T00:00:00', '2026-02-28T00:00:00', '2026-03-31T00:00:00']],
  [
    '0 0 0 L-3 * *',
    'UTC',
    JAN_1,
    ['2026-01-28T00:00:00', '2026-02-25T00:00:00', '2026-03-28T00:00:00', '2026-04-27T00:00:00'],
  ],
  [
    '0 0 0 1,L * *',
    'UTC',
    JAN_1,
    ['2026-01-01T00:00:00', '2026-01-31T00:00:00', '2026-02-01T00:00:00', '2026-02-28T00:00:00'],
  ],
  // 1W: a Sunday the 1st moves to Monday the 2nd.
  [
    '0 0 0 1W * *',
    'UTC',
    JAN_1,
    ['2026-01-01T00:00:00', '2026-02-02T00:00:00', '2026-03-02T00:00:00', '2026-04-01T00:00:00'],
  ],
  // LW: the last weekday (Saturday the 31st gives Friday the 30th).
  [
    '0 0 0 LW * *',
    'UTC',
    JAN_1,
    ['2026-01-30T00:00:00', '2026-02-27T00:00:00', '2026-03-31T00:00:00', '2026-04-30T00:00:00'],
  ],
  [
    '0 0 0 L,LW * *',
    'UTC',
    JAN_1,
    ['2026-01-30T00:00:00', '2026-01-31T00:00:00', '2026-02-27T00:00:00', '2026-02-28T00:00:00'],
  ],
  // 31W: months without a 31st have none; Sunday 31 May 2026 moves to Monday 1 June, which is
  // not the 31st's week day in June, so May has no fire.
  [
    '0 0 0 31W * *',
    'UTC',
    JAN_1,
    ['2026-01-30T00:00:00', '2026-03-31T00:00:00', '2026-07-31T00:00:00', '2026-08-31T00:00:00'],
  ],
  // 28W in 2027: Sunday 28 February has no fire; Sunday 28 March moves to Monday the 29th.
  [
    '0 0 0 28W * *',
    'UTC',
    at('2027-01-01T00:00:00'),
    ['2027-01-28T00:00:00', '2027-03-29T00:00:00', '2027-04-28T00:00:00'],
  ],
  [
    '0 0 0 * * 5L',
    'UTC',
    JAN_1,
    ['2026-01-30T00:00:00', '2026-02-27T00:00:00', '2026-03-27T00:00:00', '2026-04-24T00:00:00'],
  ],
  ['0 0 0 * * THUL', 'UTC', JAN_1, ['2026-01-29T00:00:00', '2026-02-26T00:00:00', '2026-03-26T00:00:00']],
  ['0 0 0 ? * 0L', 'UTC', JAN_1, ['2026-01-25T00:00:00', '2026-02-22T00:00:00', '2026-03-29T00:00:00']],
  ['0 0 0 ? * 5#2', 'UTC', JAN_1, ['2026-01-09T00:00:00', '2026-02-13T00:00:00', '2026-03-13T00:00:00']],
  ['0 0 0 ? * MON#1', 'UTC', JAN_1, ['2026-01-05T00:00:00', '2026-02-02T00:00:00', '2026-03-02T00:00:00']],
  ['0 0 0 ? * 7#1', 'UTC', JAN_1, ['2026-01-04T00:00:00', '2026-02-01T00:00:00', '2026-03-01T00:00:00']],
  ['@weekly', 'UTC', JAN_1, ['2026-01-04T00:00:00', '2026-01-11T00:00:00']],
  ['@hourly', 'UTC', at('2026-01-01T00:00:01'), ['2026-01-01T01:00:00', '2026-01-01T02:00:00']],
  // In a zone: 09:00 in Berlin is 08:00Z in winter, 07:00Z in summer.
  [
    '0 0 9 ? * MON-FRI',
    'Europe/Berlin',
    JAN_1,
    ['2026-01-01T08:00:00', '2026-01-02T08:00:00', '2026-01-05T08:00:00'],
  ],
  [
    '0 0 9 L-1 * ?',
    'Europe/Berlin',
    at('2026-05-01T00:00:00'),
    ['2026-05-30T07:00:00', '2026-06-29T07:00:00'],
  ],
];

describe("Spring's cron dialect", () => {
  it.each(table)('%s in %s', (expression, zone, from, expected) => {
    expect(cronProblem(expression)).toBeUndefined();
    const times = fireTimesBetween(expression, zone, from, Number.POSITIVE_INFINITY, expected.length);
    expect(times.map((t) => new Date(t).toISOString().slice(0, 19))).toEqual(expected);
    expect(nextAtOrAfter(expression, zone, from)).toBe(times[0]);
  });

  it('counts back over the day-of-month forms croner cannot say, too', () => {
    expect(
      fireTimesBefore('0 0 0 31W * *', 'UTC', at('2026-09-01T00:00:00'), 3).map((t) =>
        new Date(t).toISOString(),
      ),
    ).toEqual(['2026-03-31T00:00:00.000Z', '2026-07-31T00:00:00.000Z', '2026-08-31T00:00:00.000Z']);
    expect(fireTimesBefore('0 30 6 L-3 * *', 'UTC', at('2026-03-01T00:00:00'), 2)).toEqual([
      at('2026-01-28T06:30:00'),
      at('2026-02-25T06:30:00'),
    ]);
  });

  it('has no fire time for a date that never comes', () => {
    expect(cronProblem('0 0 0 30 2 ?')).toBeUndefined();
    expect(nextAtOrAfter('0 0 0 30 2 ?', 'UTC', JAN_1)).toBeUndefined();
    expect(nextAtOrAfter('0 0 0 30W 2 ?', 'UTC', JAN_1)).toBeUndefined();
  });

  it.each([
    ['0 0 12 * *', 'it needs 6 fields'],
    ['0 0 12 * * * 2026', 'it needs 6 fields'],
    ['? * * * * *', "second field: '?' is only allowed in the day-of-month and day-of-week fields"],
    ['0 0 24 * * *', 'hour field: 24 is not within 0-23'],
    ['0 0 0 0 * *', 'day-of-month field: 0 is not within 1-31'],
    ['*/0 * * * * *', 'must be 1 or more'],
    ['0 0 0 * * 6-1', "day-of-week field: the range '6-1' starts after it ends"],
    ['0 0 0 ? * L', "no day of week before 'L'"],
    ['0 0 0 ? * 5#L', "'5#L' does not start with a day of week"],
    ['0 0 0 ? * 1#6', "'1#6' never matches"],
    ['0 0 0 * * 1-', "day-of-week field: '' is not a number"],
    ['0 0 0 L3 * *', 'must be L, LW or L-n'],
    ['0 0 0 W * *', "no day-of-month before 'W'"],
    ['0 0 0 1-5W * *', "'1-5' is not a number"],
    ['0 0 0 ? FOO *', "month field: 'FOO' is not a number"],
  ])('refuses %s, saying why', (expression, why) => {
    expect(cronProblem(expression)).toContain(`'${expression}' is not a valid cron expression:`);
    expect(cronProblem(expression)).toContain(why);
  });
});
