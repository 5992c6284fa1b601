/**
 * What the server logs about requests and runs (README "Operations"): one access line per request
 * at info, engine events at debug with the run's and task's ids, and never a credential. Runs over
 * node:http and through the Lambda adapter (the `lambda` vitest project).
 */
import { describe, expect, it } from 'vitest';
import { uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { captureLogs } from '../log/capture.ts';
import { ExecutionApi } from './execution-api.ts';

const captured = captureLogs('debug');
const endpoint = useTestServer({}, { logger: captured.logger });
const api = new ExecutionApi(endpoint);

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.secret-token-value.c2lnbmF0dXJl';
const SIG = 'f00dfacecafe1234567890abcdef';
const AMZ_SIG = 'deadbeef0123456789abcdefdeadbeef0123456789';
const AMZ_CREDENTIAL = 'AKIAEXAMPLEKEYID%2F20260101%2Fus-east-1%2Fs3%2Faws4_request';

const accessLines = () => captured.lines().filter((line) => line.message === 'request');

describe('request logging', () => {
  it('writes one access line per request: method, path, status and milliseconds', async () => {
    const before = accessLines().length;
    const name = uniqueName('missing');
    const response = await api.get(`/api/metadata/workflow/${name}`);
    expect(response.status).toBe(404);
    const lines = accessLines().slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      method: 'GET',
      path: `/api/metadata/workflow/${name}`,
      status: 404,
    });
    expect(typeof lines[0]?.ms).toBe('number');
    if (endpoint.transport === 'lambda') expect(typeof lines[0]?.requestId).toBe('string');
  });

  it('never writes a token, a signature or a credential carried by a request', async () => {
    const before = captured.text().length;
    const targets = [
      `/api/files/content/some-file?op=get&exp=9999999999&kid=k1&sig=${SIG}`,
      `/api/metadata/workflow?X-Amz-Signature=${AMZ_SIG}&X-Amz-Credential=${AMZ_CREDENTIAL}&access=1`,
      `/api/workflow/${uniqueName('nope')}?token=${TOKEN}`,
      `/api/no-such-route?sig=${SIG}`,
    ];
    for (const target of targets) {
      await (
        await endpoint.fetch(`${endpoint.url}${target}`, { headers: { 'X-Authorization': TOKEN } })
      ).text();
    }
    // A body the server refuses, with the token in the header and a signature in the query.
    await (
      await endpoint.fetch(`${endpoint.url}/api/metadata/workflow?sig=${SIG}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-Authorization': TOKEN },
        body: '{not json',
      })
    ).text();
    const written = captured.text().slice(before);
    expect(written).toContain('"message":"request"');
    for (const secret of [TOKEN, SIG, AMZ_SIG, 'AKIAEXAMPLEKEYID', 'secret-token-value']) {
      expect(written).not.toContain(secret);
    }
    // The access lines still say which request it was, with the credential masked.
    const paths = accessLines().map((line) => String(line.path));
    expect(paths).toContain('/api/no-such-route?sig=***');
    expect(paths.some((p) => p.includes('X-Amz-Signature=***') && p.includes('access=1'))).toBe(true);
  });
});

describe('engine events', () => {
  it('tells at debug that a run started, its task was scheduled, failed, retried and completed, and the run ended', async () => {
    const task = uniqueName('flaky');
    const name = uniqueName('events');
    await api.registerTaskDefs([{ name: task, retryCount: 1, retryLogic: 'FIXED', retryDelaySeconds: 0 }]);
    // The definition's retry count (the fixture's workflow task would override it with 0).
    await api.registerWorkflow({
      name,
      version: 1,
      tasks: [{ name: task, taskReferenceName: task, type: 'SIMPLE' }],
    });
    const workflowId = await api.start(name);
    const first = await api.pollEventually(task);
    await api.update(first, 'FAILED');
    const second = await api.pollEventually(task);
    await api.update(second, 'COMPLETED');
    await api.workflowEventually(workflowId, 'COMPLETED');
    const events = captured
      .lines()
      .filter((line) => line.level === 'debug' && line.workflowId === workflowId)
      .map((line) => [line.message, line.taskId]);
    expect(events).toEqual([
      ['run started', undefined],
      ['task scheduled', first.taskId],
      ['task failed', first.taskId],
      ['task retried', second.taskId],
      ['task completed', second.taskId],
      ['run ended', undefined],
    ]);
  });
});
