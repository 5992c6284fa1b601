/** The narrow logger: levels, the invocation's request id on every line, and masked request targets. */
import { afterEach, describe, expect, it } from 'vitest';
import { loggableTarget } from '../../lib/http/access-log.ts';
import { beginInvocation, invocationContext } from '../../lib/log/invocation.ts';
import { createLogger, debugEnabled, silentLogger } from '../../lib/log/logger.ts';

describe('logger', () => {
  afterEach(() => beginInvocation(undefined));

  it('writes JSON lines with the level, the message, its fields and the context fields', () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      format: 'json',
      write: (l) => lines.push(l),
      context: invocationContext,
    });
    beginInvocation('req-1');
    logger.info('task polled', { workflowId: 'w1', taskId: 't1' });
    logger.debug('not written');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      level: 'info',
      message: 'task polled',
      requestId: 'req-1',
      workflowId: 'w1',
      taskId: 't1',
    });
  });

  it('writes readable lines locally', () => {
    const lines: string[] = [];
    createLogger({ level: 'debug', format: 'text', write: (l) => lines.push(l) }).warn('slow store', {
      ms: 12,
    });
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+ WARN {2}slow store \{"ms":12\}$/);
  });

  it('says whether debug lines are written, so hot paths build nothing when they are not', () => {
    const write = () => {};
    expect(debugEnabled(createLogger({ level: 'debug', format: 'json', write }))).toBe(true);
    expect(debugEnabled(createLogger({ level: 'info', format: 'json', write }))).toBe(false);
    expect(debugEnabled(silentLogger)).toBe(false);
  });
});

describe('loggableTarget', () => {
  it('masks every query value whose name may hold a credential, and keeps the rest', () => {
    expect(loggableTarget('/api/files/content/f1?op=get&exp=99&kid=k1&sig=abc')).toBe(
      '/api/files/content/f1?op=get&exp=99&kid=k1&sig=***',
    );
    expect(
      loggableTarget(
        '/b/k?X-Amz-Algorithm=AWS4&X-Amz-Credential=AKIA%2Fx&X-Amz-Security-Token=t&X-Amz-Signature=s',
      ),
    ).toBe('/b/k?X-Amz-Algorithm=AWS4&X-Amz-Credential=***&X-Amz-Security-Token=***&X-Amz-Signature=***');
    expect(loggableTarget('/api/x?access_token=t&apiKey=k&password=p&start=0')).toBe(
      '/api/x?access_token=***&apiKey=***&password=***&start=0',
    );
  });

  it('keeps a path without a query as it is, and masks a parameter whose name cannot be decoded', () => {
    expect(loggableTarget('/api/workflow/abc')).toBe('/api/workflow/abc');
    expect(loggableTarget('/api/workflow/abc?')).toBe('/api/workflow/abc');
    expect(loggableTarget('/x?%E0%A4%A=1&a=2')).toBe('/x?***&a=2');
  });
});
