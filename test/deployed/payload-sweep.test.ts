/**
 * The payload sweep as deployed (lib/payloads/sweep.ts, the `payload-sweep` function): with its own
 * role, every call checked against its policy, it lists `payloads/` (s3:ListBucket, only under that
 * prefix), scans the executions table and reads the schedules, and tags the payload of a removed
 * run for the bucket's lifecycle rule (s3:PutObjectTagging), while the payload a live run names is
 * left untagged. Three days pass on the harness clock, which the function's process shares.
 */
import { GetObjectTaggingCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYLOAD_PREFIX, UNREFERENCED_TAG } from '../../lib/payloads/keys.ts';
import { s3rverClient } from '../helpers/s3.ts';
import { type DeployedStack, startDeployedStack } from './harness/index.ts';
import { deployedAssembly } from './harness/shared.ts';

const DAY = 86_400_000;
let stack: DeployedStack;
let s3: S3Client;

beforeAll(async () => {
  stack = await startDeployedStack({
    assembly: deployedAssembly(),
    echoLogs: process.env.HARNESS_ECHO === '1',
  });
  s3 = s3rverClient(stack.aws.s3Endpoint);
}, 120_000);

afterAll(async () => {
  s3?.destroy();
  await stack?.stop();
});

const filesBucket = (): string => {
  const output = stack.template.raw.Outputs?.FilesBucketName?.Value as { Ref: string };
  const physical = stack.template.physical.get(output.Ref);
  if (!physical) throw new Error('No files bucket');
  return physical.ref;
};

describe('the deployed payload sweep', () => {
  it("tags the removed run's payload for the lifecycle rule and leaves the live run's, within its grants", async () => {
    const workflow = { name: 'sweep_payloads', version: 1, schemaVersion: 2, tasks: [] as unknown[] };
    workflow.tasks.push({ name: 'work', taskReferenceName: 'work', type: 'SIMPLE', inputParameters: {} });
    expect((await stack.request('POST', '/api/metadata/workflow', workflow)).status).toBe(200);
    // Over the 64 KB threshold: kept in the payload store.
    const start = async (tag: string) => {
      const answer = await stack.request('POST', '/api/workflow/sweep_payloads', {
        blob: tag.repeat(20_000),
      });
      expect(answer.status, answer.text).toBe(200);
      return answer.text;
    };
    const removed = await start('removed');
    const live = await start('live');
    const pathOf = async (id: string | undefined) =>
      JSON.parse((await stack.request('GET', `/api/workflow/${id}?includeTasks=false`)).text)
        .externalInputPayloadStoragePath as string;
    const removedPath = await pathOf(removed);
    const livePath = await pathOf(live);
    expect(removedPath).toMatch(/^sha256\//);
    expect(livePath).toMatch(/^sha256\//);
    expect((await stack.request('DELETE', `/api/workflow/${removed}/terminate-remove`)).status).toBe(200);

    const bucket = filesBucket();
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: PAYLOAD_PREFIX }));
    expect(listed.Contents?.map((o) => o.Key).sort()).toEqual(
      [`${PAYLOAD_PREFIX}${removedPath}`, `${PAYLOAD_PREFIX}${livePath}`].sort(),
    );

    // Past the two-day grace period (the rules are not run: the function is invoked as its rule would).
    stack.clock.advance(3 * DAY);
    const outcome = await stack.fn('PayloadSweepFunction').invoke({ source: 'aws.events' });
    expect(outcome, JSON.stringify(outcome)).toMatchObject({
      ok: true,
      result: { stored: 2, candidates: 2, unreferenced: 1, reclaimed: 1 },
    });
    const tags = async (path: string) =>
      (await s3.send(new GetObjectTaggingCommand({ Bucket: bucket, Key: `${PAYLOAD_PREFIX}${path}` })))
        .TagSet;
    expect(await tags(removedPath)).toEqual([{ Key: UNREFERENCED_TAG.Key, Value: UNREFERENCED_TAG.Value }]);
    expect(await tags(livePath)).toEqual([]);
    // Every call it made was within its role.
    expect(stack.iam.denials.filter((d) => d.function.includes('PayloadSweep'))).toEqual([]);
  }, 120_000);
});
