// The wake-up sweeper job (lib/jobs/sweeper.ts) on the AWS host: SqsDecisionQueue on a fake SQS
// client over memory stores and the real engine.
import { beforeEach, describe, expect, it } from 'vitest';
import { sweeper, sweepWakeups } from '../../lib/jobs/sweeper.ts';
import { DECISIONS, depsOf, type Host, host, MINUTE } from '../queue/sqs-host.ts';

describe('the sweeper', () => {
  let h: Host;
  const sweep = (limit?: number) => sweepWakeups(depsOf(h), h.clock.now(), limit);

  beforeEach(() => {
    h = host();
  });

  it('requests a decide of each run whose wake-up has come, and of no other', async () => {
    const t0 = h.clock.now();
    h.clock.set(t0 + 10 * MINUTE);
    await h.start(); // due at t0 + 10 min
    h.clock.set(t0);
    const due = await h.start(); // due at t0
    h.takeSent(DECISIONS);

    h.clock.set(t0 + MINUTE);
    expect(await sweep()).toEqual({ due: 1, requested: 1 });
    expect(h.sqs.sent.map((input) => [input.QueueUrl, input.MessageGroupId])).toEqual([[DECISIONS, due]]);
  });

  it('takes at most its limit of runs per sweep, the longest overdue first', async () => {
    const first = await h.start();
    h.clock.advance(30_000);
    await h.start();
    h.takeSent(DECISIONS);

    h.clock.advance(MINUTE);
    expect(await sweep(1)).toEqual({ due: 1, requested: 1 });
    expect(h.takeSent(DECISIONS)).toEqual([first]);
  });

  it('still requests the other runs when one request fails, then fails the sweep', async () => {
    const a = await h.start();
    const b = await h.start();
    h.takeSent(DECISIONS);
    h.sqs.failWhen = (input) => input.MessageGroupId === a;

    h.clock.advance(MINUTE);
    await expect(sweep()).rejects.toThrow(/1 of 2 decide requests failed/);
    expect(h.takeSent(DECISIONS)).toEqual([b]);
  });
});

describe('the sweeper job', () => {
  let h: Host;

  beforeEach(() => {
    h = host();
  });

  it('runs every minute and, as a job, sweeps what is due at the time it is given', async () => {
    expect(sweeper.every).toBe('1 minute');
    const t0 = h.clock.now();
    const due = await h.start();
    h.clock.set(t0 + 10 * MINUTE);
    const later = await h.start(); // due at t0 + 10 min
    h.takeSent(DECISIONS);

    expect(await sweeper.run(depsOf(h), t0 + MINUTE, { catchUp: false })).toEqual({ due: 1, requested: 1 });
    expect(h.takeSent(DECISIONS)).toEqual([due]);
    expect(later).not.toBe(due);
  });

  it('catches up on every run with a stored wake-up, due or not, when asked to at start', async () => {
    const t0 = h.clock.now();
    const now = await h.start();
    h.clock.set(t0 + 24 * 60 * MINUTE);
    const tomorrow = await h.start();
    h.takeSent(DECISIONS);

    expect(await sweeper.run(depsOf(h), t0, { catchUp: true })).toEqual({ due: 2, requested: 2 });
    expect(h.takeSent(DECISIONS).sort()).toEqual([now, tomorrow].sort());
  });
});
