/**
 * What only AWS would notice, noticed here: the same stack with one grant taken away from a copy of
 * its template (the schedule-fire function's access to the schemas table, which a workflow with an
 * enforced input schema reads at start). The scheduled start fails with AccessDenied naming the
 * function, the action and the table; every delivery of the fire message fails the same way, and
 * after the queue's maxReceiveCount deliveries it lands in the dead-letter queue.
 */
import { MetadataClient, SchedulerClient, SchemaClient } from '@io-orkes/conductor-javascript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../http/execution-api.ts';
import { sdkClient } from '../sdk/sdk-client.ts';
import { type DeployedStack, startDeployedStack } from './harness/index.ts';
import { deployedAssembly } from './harness/shared.ts';
import { readTemplate } from './harness/template.ts';
import { withoutGrant } from './harness/template-edit.ts';

let stack: DeployedStack;

beforeAll(async () => {
  const assembly = deployedAssembly();
  const template = withoutGrant(readTemplate(assembly.templatePath), 'ScheduleFireFunction', 'DataSchemas');
  stack = await startDeployedStack({ assembly, template, echoLogs: process.env.HARNESS_ECHO === '1' });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('a stack whose schedule-fire role lacks the schemas table', () => {
  it('fails the scheduled start with AccessDenied, and the fire message ends in the dead-letter queue', async () => {
    const client = await sdkClient(stack.apiUrl, { keyId: stack.key.id, keySecret: stack.key.secret });
    await new SchemaClient(client).registerSchema([
      { name: 'iam_order', version: 1, type: 'JSON', data: { required: ['order'] } } as never,
    ]);
    await new MetadataClient(client).registerWorkflowDef(
      {
        name: 'iam_scheduled',
        version: 1,
        inputSchema: { name: 'iam_order', type: 'JSON' },
        enforceSchema: true,
        tasks: [
          { name: 'note', taskReferenceName: 'note', type: 'SET_VARIABLE', inputParameters: { seen: true } },
        ],
      } as never,
      true,
    );
    // Every second for ten seconds: a few fires, sent by the save, each delayed to its second.
    await new SchedulerClient(client).saveSchedule({
      name: 'iam_every_second',
      cronExpression: '* * * * * ?',
      scheduleEndTime: Date.now() + 10_000,
      startWorkflowRequest: { name: 'iam_scheduled', version: 1, input: { order: 1 } },
    } as never);
    await stack.advance(11_000);
    await stack.settled();

    const schemas = stack.template.physical.get(
      Object.keys(stack.template.raw.Resources).find((id) => id.startsWith('DataSchemas')) as string,
    );
    const denial = await eventually(async () => {
      const found = stack.iam.denials.find((d) => d.function.includes('ScheduleFire'));
      if (!found) {
        await stack.advance(1000);
        throw new Error('no denial yet');
      }
      return found;
    }, 20_000);
    expect(denial).toMatchObject({
      action: expect.stringMatching(/^dynamodb:/),
      resource: schemas?.attributes.Arn,
    });
    const fire = stack.fn('ScheduleFireFunction');
    expect(fire.logs.join('\n')).toContain(
      `AccessDeniedException: User: arn:aws:sts::123456789012:assumed-role/${fire.spec.roleName}/${fire.spec.name} is not authorized to perform: ${denial.action} on resource: ${denial.resource}`,
    );
    // No other function was refused anything: the removed grant is the only gap.
    expect(stack.iam.denials.filter((d) => !d.function.includes('ScheduleFire'))).toEqual([]);

    const queue = stack.queue('QueuesSchedules6');
    const deadLetters = stack.queue('QueuesSchedulesDlq');
    expect(deadLetters.messages).toEqual([]);
    const maxReceiveCount = queue.settings.redrive?.maxReceiveCount as number;
    // Each failed delivery comes back after the visibility timeout; past maxReceiveCount it moves.
    for (let delivery = 1; delivery <= maxReceiveCount; delivery += 1) {
      await stack.advance(queue.settings.visibilityTimeoutS * 1000);
      await stack.settled();
    }
    expect(deadLetters.messages.length).toBeGreaterThan(0);
    expect(deadLetters.messages.every((m) => m.receiveCount === maxReceiveCount)).toBe(true);
    expect(deadLetters.messages[0]?.body).toContain('iam_every_second');
    expect(queue.messages).toEqual([]);
  }, 120_000);
});
