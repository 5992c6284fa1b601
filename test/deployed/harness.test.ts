/**
 * The harness's own stand-ins behave as AWS does where the stack depends on it: SQS through the
 * official SDK client (refusals, FIFO groups and deduplication, delays, visibility, redrive, IAM),
 * event source mappings (concurrency, partial batch responses), schedule expressions, and Lambda
 * timeouts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AwsFront } from './harness/aws.ts';
import { HarnessClock } from './harness/clock.ts';
import { type InvokeResult, LambdaFunction } from './harness/functions.ts';
import { Iam } from './harness/iam.ts';
import { Sqs } from './harness/sqs.ts';
import { type CfnTemplate, resolveTemplate } from './harness/template.ts';
import { EventSourceMapping, nextFireTime } from './harness/triggers.ts';

const TEMPLATE: CfnTemplate = {
  Resources: {
    Orders: {
      Type: 'AWS::SQS::Queue',
      Properties: {
        FifoQueue: true,
        QueueName: 'orders.fifo',
        VisibilityTimeout: 60,
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': ['OrdersDlq', 'Arn'] }, maxReceiveCount: 2 },
      },
    },
    OrdersDlq: { Type: 'AWS::SQS::Queue', Properties: { FifoQueue: true, QueueName: 'orders-dlq.fifo' } },
    Plain: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'plain', MaximumMessageSize: 1024 } },
    Role: { Type: 'AWS::IAM::Role', Properties: { RoleName: 'sender' } },
    Policy: {
      Type: 'AWS::IAM::Policy',
      Properties: {
        PolicyName: 'send',
        Roles: [{ Ref: 'Role' }],
        PolicyDocument: {
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Action: ['sqs:SendMessage', 'sqs:ReceiveMessage', 'sqs:DeleteMessage'],
              Resource: [{ 'Fn::GetAtt': ['Orders', 'Arn'] }, { 'Fn::GetAtt': ['Plain', 'Arn'] }],
            },
          ],
        },
      },
    },
  },
};

let front: AwsFront;
let sqs: Sqs;
let clock: HarnessClock;
let client: SQSClient;
let iam: Iam;
const urlOf = (name: string) => sqs.queues.find((q) => q.name === name)?.url as string;

beforeAll(async () => {
  front = await AwsFront.listen();
  const template = resolveTemplate(TEMPLATE, 'Test', front.endpoint);
  clock = new HarnessClock();
  sqs = new Sqs(template, clock);
  iam = new Iam(template);
  await front.provision(template, sqs, iam);
  front.callers.set('AKIASENDER', { role: 'sender', functionName: 'sender-fn' });
  client = new SQSClient({
    endpoint: front.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASENDER', secretAccessKey: 'x' },
  });
});

afterAll(async () => {
  client?.destroy();
  sqs?.close();
  await front?.close();
});

describe('SQS, through the SDK client', () => {
  it('refuses what SQS refuses: a delay on a FIFO queue, one above 900 s, a body above the maximum size, a FIFO send without a group', async () => {
    await expect(
      client.send(
        new SendMessageCommand({
          QueueUrl: urlOf('orders.fifo'),
          MessageBody: 'x',
          MessageGroupId: 'g',
          MessageDeduplicationId: 'd0',
          DelaySeconds: 5,
        }),
      ),
    ).rejects.toMatchObject({
      name: 'InvalidParameterValue',
      message: expect.stringMatching(/DelaySeconds/),
    });
    await expect(
      client.send(new SendMessageCommand({ QueueUrl: urlOf('plain'), MessageBody: 'x', DelaySeconds: 901 })),
    ).rejects.toMatchObject({
      name: 'InvalidParameterValue',
      message: expect.stringMatching(/between 0 and 900/),
    });
    await expect(
      client.send(new SendMessageCommand({ QueueUrl: urlOf('plain'), MessageBody: 'x'.repeat(1025) })),
    ).rejects.toMatchObject({
      name: 'InvalidParameterValue',
      message: expect.stringMatching(/shorter than 1024/),
    });
    await expect(
      client.send(
        new SendMessageCommand({
          QueueUrl: urlOf('orders.fifo'),
          MessageBody: 'x',
          MessageDeduplicationId: 'd',
        }),
      ),
    ).rejects.toMatchObject({ name: 'MissingParameter' });
    const batch = await client.send(
      new SendMessageBatchCommand({
        QueueUrl: urlOf('plain'),
        Entries: [
          { Id: 'ok', MessageBody: 'fine', DelaySeconds: 900 },
          { Id: 'late', MessageBody: 'x', DelaySeconds: 1000 },
        ],
      }),
    );
    expect(batch.Successful?.map((e) => e.Id)).toEqual(['ok']);
    expect(batch.Failed?.map((e) => [e.Id, e.Code])).toEqual([['late', 'InvalidParameterValue']]);
  });

  it('refuses a call the role does not allow, naming the function, the action and the queue', async () => {
    const dlq = sqs.queues.find((q) => q.name === 'orders-dlq.fifo');
    await expect(
      client.send(
        new SendMessageCommand({
          QueueUrl: dlq?.url,
          MessageBody: 'x',
          MessageGroupId: 'g',
          MessageDeduplicationId: 'z',
        }),
      ),
    ).rejects.toMatchObject({
      name: 'AccessDenied',
      message: `User: arn:aws:sts::123456789012:assumed-role/sender/sender-fn is not authorized to perform: sqs:SendMessage on resource: ${dlq?.arn} because no identity-based policy allows the sqs:SendMessage action`,
    });
    expect(iam.denials.at(-1)).toMatchObject({
      function: 'sender-fn',
      action: 'sqs:SendMessage',
      resource: dlq?.arn,
    });
  });

  it('keeps a FIFO group in order, drops a repeated deduplication id, hides a received message until its visibility timeout, and moves it to the dead-letter queue past maxReceiveCount', async () => {
    const url = urlOf('orders.fifo');
    const send = (body: string, dedup: string) =>
      client.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: body,
          MessageGroupId: 'g1',
          MessageDeduplicationId: dedup,
        }),
      );
    const first = await send('one', 'a');
    expect((await send('one again', 'a')).MessageId).toBe(first.MessageId);
    await send('two', 'b');
    const receive = async () =>
      (await client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }))).Messages ??
      [];

    const [head, ...rest] = (
      await client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 1 }))
    ).Messages ?? [undefined];
    expect(head?.Body).toBe('one');
    expect(rest).toEqual([]);
    // 'two' waits behind 'one', which is in flight: nothing until its visibility timeout.
    expect(await receive()).toEqual([]);
    clock.advance(60_000);
    const again = await receive();
    expect(again.map((m) => [m.Body, m.Attributes?.ApproximateReceiveCount])).toEqual([
      ['one', '2'],
      ['two', '1'],
    ]);
    clock.advance(60_000);
    // 'one' was received twice (maxReceiveCount): it moves instead of coming back.
    const third = await receive();
    expect(third.map((m) => m.Body)).toEqual(['two']);
    expect(sqs.queues.find((q) => q.name === 'orders-dlq.fifo')?.messages.map((m) => m.body)).toEqual([
      'one',
    ]);
    await client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: third[0]?.ReceiptHandle }));
    expect(sqs.queues.find((q) => q.name === 'orders.fifo')?.messages).toEqual([]);
  });
});

describe('an event source mapping', () => {
  it('keeps at most MaximumConcurrency invocations in flight and deletes only what the partial batch response does not name', async () => {
    const queue = sqs.queues.find((q) => q.name === 'plain');
    if (!queue) throw new Error('no queue');
    let inFlight = 0;
    let most = 0;
    const seen: string[] = [];
    const fn = {
      spec: { name: 'consumer' },
      async invoke(event: { Records: { messageId: string; body: string }[] }): Promise<InvokeResult> {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight -= 1;
        seen.push(...event.Records.map((r) => r.body));
        const failed = event.Records.filter((r) => r.body === 'bad').map((r) => ({
          itemIdentifier: r.messageId,
        }));
        return { ok: true, result: { batchItemFailures: failed } };
      },
    } as unknown as LambdaFunction;
    for (const body of ['a', 'b', 'c', 'd', 'bad', 'e', 'f']) queue.send({ body });
    const mapping = new EventSourceMapping(
      queue,
      sqs,
      fn,
      { batchSize: 1, maxConcurrency: 2, reportFailures: true },
      [],
    );
    await mapping.settled();
    mapping.stop();
    expect(most).toBe(2);
    expect(seen.sort()).toEqual(['a', 'b', 'bad', 'c', 'd', 'e', 'f']);
    // What is left: the failed message, in flight until its visibility timeout (and the earlier
    // test's message delayed 900 s).
    expect(queue.messages.filter((m) => m.body !== 'fine').map((m) => [m.body, m.receiveCount])).toEqual([
      ['bad', 1],
    ]);
  });
});

describe('schedule expressions', () => {
  it('fire rate rules every period from their creation and cron rules at their UTC times', () => {
    const created = Date.UTC(2026, 0, 1, 10, 0, 30);
    expect(nextFireTime('rate(1 minute)', created, created)).toBe(created + 60_000);
    expect(nextFireTime('rate(5 minutes)', created + 60_000, created)).toBe(created + 300_000);
    expect(nextFireTime('cron(15 10 * * ? *)', created, created)).toBe(Date.UTC(2026, 0, 1, 10, 15));
    expect(nextFireTime('cron(0 12 ? * MON *)', created, created)).toBe(Date.UTC(2026, 0, 5, 12, 0));
  });
});

describe('a Lambda execution environment', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'harness-fn-'));
    writeFileSync(
      join(dir, 'index.mjs'),
      'export const handler = async (event) => { await new Promise((r) => setTimeout(r, event.ms)); return { slept: event.ms, node: process.versions.node.split(".")[0], sdk: await import("@aws-sdk/client-sqs").then(() => "found", () => "absent") }; };',
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the handler on Node 22 with nothing installed beside it, and ends an invocation at the timeout as Lambda does', async () => {
    const fn = new LambdaFunction(
      {
        logicalId: 'Sleeper',
        name: 'sleeper',
        arn: 'arn:aws:lambda:us-east-1:123456789012:function:sleeper',
        roleName: 'none',
        taskRoot: dir,
        handler: 'index.handler',
        timeoutSeconds: 1,
        memoryMb: 128,
        environment: {},
      },
      { endpoint: 'http://127.0.0.1:9', accessKeyId: 'AKIANONE', secretAccessKey: 'x' },
      false,
    );
    try {
      expect(await fn.invoke({ ms: 10 })).toEqual({
        ok: true,
        result: { slept: 10, node: '22', sdk: 'absent' },
      });
      expect(await fn.invoke({ ms: 3000 })).toEqual({
        ok: false,
        error: { errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out after 1.00 seconds' },
      });
      // The timed-out environment is gone; the next invocation starts a fresh one.
      const after = await fn.invoke({ ms: 10 });
      expect(after, JSON.stringify(after)).toMatchObject({ ok: true });
      expect(fn.coldStarts).toHaveLength(2);
    } finally {
      await fn.stop();
    }
  });
});
