// Assertions on the synthesized CloudFormation template of ConductorStack (bundling skipped).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pascalCase } from '../../infra/constructs/names.ts';
import {
  backgroundDescription,
  ConductorStack,
  type ConductorStackProps,
  enabledGroups,
  type Gates,
} from '../../infra/stack.ts';
import { CAPABILITIES as ROUTE_GROUPS, TABLES } from '../../lib/capabilities.ts';
import type { Capability } from '../../lib/capability.ts';
import { envNameOf } from '../../lib/config/load.ts';
import { MAX_RECEIVE_COUNT, timer } from '../../lib/jobs/decision-consumers.ts';
import { JOBS, CONSUMERS as QUEUE_CONSUMERS } from '../../lib/jobs/index.ts';
import { scheduleFire } from '../../lib/jobs/schedule-fire.ts';
import { metadataCapability } from '../../lib/metadata/capability.ts';
import { keyAttributeTypes, projectionOf } from '../../lib/store/dynamodb/tables.ts';
import { systemCapability } from '../../lib/system/capability.ts';

/** The work queues each capability may send to (its grants). */
const sendsOf = (name: string) => ROUTE_GROUPS.find((c) => c.name === name)?.grants.sends;

/** The defaults of lib/config/properties.ts. */
const DEFAULT_GATES: Gates = { scheduler: true, fileStorage: false, messageQueue: false, agents: false };

const outdirs: string[] = [];

/** Synthesizes a stack without running esbuild, into a temp dir removed after the file. */
function synth(props: Partial<ConductorStackProps> = {}): Template {
  const outdir = mkdtempSync(join(tmpdir(), 'conductor-cdk-test-'));
  outdirs.push(outdir);
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  return Template.fromStack(new ConductorStack(app, 'Test', { gates: DEFAULT_GATES, ...props }));
}

afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * The service's own functions: every AWS::Lambda::Function but the handler CDK adds for the UI's
 * BucketDeployment (a CDK singleton, logical id `CustomCDKBucketDeployment...`).
 */
function serviceFunctions(template: Template): ReturnType<Template['findResources']> {
  return Object.fromEntries(
    Object.entries(template.findResources('AWS::Lambda::Function')).filter(
      ([id]) => !id.startsWith('CustomCDKBucketDeployment'),
    ),
  );
}

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

type Properties = Record<string, unknown>;

/** The logical id and properties of the one resource found; the test fails unless exactly one matched. */
function only(resources: ReturnType<Template['findResources']>, what: string): [string, Properties] {
  const [entry, ...rest] = Object.entries(resources);
  if (entry === undefined || rest.length > 0) {
    throw new Error(`Expected exactly one ${what}, found ${Object.keys(resources).length}`);
  }
  const [id, resource] = entry;
  return [id, resource.Properties];
}

/** The functions that are not route groups (lib/jobs: consumers and periodic jobs), by description. */
const CONSUMERS: Record<string, string> = Object.fromEntries(
  [...QUEUE_CONSUMERS, ...JOBS].map((work) => [work.name, backgroundDescription(work)]),
);

/** A route group's function, or one of the CONSUMERS. */
function functionOf(template: Template, name: string): [string, Properties] {
  const description = CONSUMERS[name] ?? `Conductor route group '${name}'`;
  return only(
    template.findResources('AWS::Lambda::Function', { Properties: { Description: description } }),
    `function '${name}'`,
  );
}

function environmentOf(template: Template, name: string): Record<string, unknown> {
  const [, fn] = functionOf(template, name);
  return (fn.Environment as { Variables: Record<string, unknown> }).Variables;
}

/** Every statement of the policies attached to the function's role. */
function statementsOf(template: Template, name: string): Statement[] {
  const [, fn] = functionOf(template, name);
  const [roleId] = (fn.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
  const policies = template.findResources('AWS::IAM::Policy', {
    Properties: { Roles: Match.arrayWith([{ Ref: roleId }]) },
  });
  return Object.values(policies)
    .flatMap((policy) => policy.Properties.PolicyDocument as { Statement: Statement[] })
    .flatMap((document) => document.Statement);
}

const actionsOf = (statement: Statement): string[] =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];

const resourcesOf = (statement: Statement): unknown[] =>
  Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];

/** The logical id of a table, through the stack output that names it. */
function tableIdOf(template: Template, table: string): string {
  const name = `${pascalCase(table)}TableName`;
  const output = template.findOutputs(name)[name];
  if (output === undefined) throw new Error(`No output ${name}`);
  return (output.Value as { Ref: string }).Ref;
}

interface AttributeDefinition {
  AttributeName: string;
  AttributeType: string;
}

interface IndexResource {
  IndexName: string;
  Projection: { ProjectionType: string };
}

/** [name, projection type] of each index, in template order. */
function indexesOf(indexes: IndexResource[] | undefined): [string, string][] {
  return (indexes ?? []).map((index) => [index.IndexName, index.Projection.ProjectionType]);
}

const tableVariable = (table: string): string => envNameOf(`service.dynamodb.tables.${table}`);

/** The table-name variables of an environment. */
function tableVariables(environment: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(environment).filter(([name]) => name.startsWith('SERVICE_DYNAMODB_TABLES_')),
  );
}

/** The logical id of the one queue whose properties match. */
function queueIdOf(template: Template, properties: Record<string, unknown>, what: string): string {
  const [id] = only(template.findResources('AWS::SQS::Queue', { Properties: properties }), what);
  return id;
}

/** The SQS actions a function's policies allow on one queue. */
function sqsActionsOn(template: Template, name: string, queueId: string): string[] {
  return statementsOf(template, name)
    .filter((s) => s.Effect === 'Allow')
    .filter((s) =>
      resourcesOf(s).some((r) => JSON.stringify(r) === JSON.stringify({ 'Fn::GetAtt': [queueId, 'Arn'] })),
    )
    .flatMap(actionsOf)
    .filter((action) => action.startsWith('sqs:'));
}

/** The DynamoDB actions a function's policies allow, whatever the table. */
function dynamoActionsOf(template: Template, name: string): string[] {
  return statementsOf(template, name)
    .flatMap(actionsOf)
    .filter((action) => action.startsWith('dynamodb:'));
}

const WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

function routeKeys(template: Template): string[] {
  return Object.values(template.findResources('AWS::ApiGatewayV2::Route'))
    .map((route) => route.Properties.RouteKey as string)
    .sort();
}

describe('ConductorStack with the default gates', () => {
  let template: Template;
  let tableId: string;

  beforeAll(() => {
    template = synth();
    tableId = tableIdOf(template, 'definitions');
  });

  it('runs every function on Node 22 on arm64', () => {
    const functions = Object.values(serviceFunctions(template));
    expect(functions).toHaveLength(
      enabledGroups(ROUTE_GROUPS, DEFAULT_GATES).length + Object.keys(CONSUMERS).length,
    );
    for (const fn of functions) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'] });
    }
  });

  it('creates exactly one route per API route of each enabled route group', () => {
    const expected = enabledGroups(ROUTE_GROUPS, DEFAULT_GATES).flatMap((group) => group.apiRoutes);
    expect(routeKeys(template)).toEqual([...expected].sort());
    expect(expected).toEqual(
      expect.arrayContaining([
        'ANY /api/metadata/{proxy+}',
        'GET /api/version',
        'GET /health',
        'ANY /api/workflow',
        'ANY /api/workflow/{proxy+}',
        'ANY /api/tasks',
        'ANY /api/tasks/{proxy+}',
      ]),
    );
  });

  it('sends each route to the function of its own route group', () => {
    for (const group of enabledGroups(ROUTE_GROUPS, DEFAULT_GATES)) {
      const [functionId] = functionOf(template, group.name);
      const [integrationId] = only(
        template.findResources('AWS::ApiGatewayV2::Integration', {
          Properties: { IntegrationUri: { 'Fn::GetAtt': [functionId, 'Arn'] } },
        }),
        `integration of '${group.name}'`,
      );
      for (const key of group.apiRoutes) {
        template.hasResourceProperties('AWS::ApiGatewayV2::Route', {
          RouteKey: key,
          Target: { 'Fn::Join': ['', ['integrations/', { Ref: integrationId }]] },
        });
      }
    }
  });

  it('lets browsers on any origin call the API with JSON bodies', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: {
        AllowOrigins: ['*'],
        AllowMethods: Match.arrayWith(['GET', 'POST', 'PUT', 'DELETE']),
        AllowHeaders: ['content-type'],
      },
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: '$default', AutoDeploy: true });
    template.hasOutput('ApiUrl', {
      Value: Match.objectLike({ 'Fn::GetAtt': Match.arrayWith(['ApiEndpoint']) }),
    });
  });

  it('creates one retained on-demand table per table spec, with its keys, TTL and every index', () => {
    expect(Object.keys(template.findResources('AWS::DynamoDB::Table'))).toHaveLength(TABLES.length);
    for (const spec of TABLES) {
      const resource = template.toJSON().Resources[tableIdOf(template, spec.id)];
      expect(resource.DeletionPolicy).toBe('Retain');
      expect(resource.Properties).toMatchObject({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: spec.ttlAttribute, Enabled: true },
        KeySchema: [
          { AttributeName: spec.partitionKey, KeyType: 'HASH' },
          { AttributeName: spec.sortKey, KeyType: 'RANGE' },
        ],
      });
      const attributes = (resource.Properties.AttributeDefinitions as AttributeDefinition[])
        .map((a) => [a.AttributeName, a.AttributeType])
        .sort();
      expect(attributes).toEqual([...keyAttributeTypes(spec)].sort());
      expect(indexesOf(resource.Properties.GlobalSecondaryIndexes)).toEqual(
        spec.indexes.map((index) => [index.name, projectionOf(index).type]),
      );
      expect(indexesOf(resource.Properties.LocalSecondaryIndexes)).toEqual(
        (spec.localIndexes ?? []).map((index) => [index.name, projectionOf(index).type]),
      );
    }
  });

  it('keeps definitions in a retained on-demand table with point-in-time recovery, TTL and gsi1', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
        GlobalSecondaryIndexes: [
          {
            IndexName: 'gsi1',
            KeySchema: [
              { AttributeName: 'gsi1pk', KeyType: 'HASH' },
              { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      },
    });
  });

  it('keeps files in a retained private encrypted bucket that refuses plain HTTP', () => {
    template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: {
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
      },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 's3:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });

  it('lets browsers upload straight to the bucket, read part ETags, and drops abandoned uploads', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: {
        CorsRules: [Match.objectLike({ AllowedMethods: ['PUT', 'GET'], ExposedHeaders: ['ETag'] })],
      },
      LifecycleConfiguration: {
        Rules: [
          Match.objectLike({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }),
        ],
      },
    });
  });

  it('lets the metadata function write to the definitions table and to nothing else', () => {
    const statements = statementsOf(template, 'metadata');
    const writes = statements.filter((s) => actionsOf(s).includes('dynamodb:PutItem'));
    expect(writes.length).toBeGreaterThan(0);
    for (const statement of writes) {
      expect(statement.Effect).toBe('Allow');
      expect(resourcesOf(statement)).toContainEqual({ 'Fn::GetAtt': [tableId, 'Arn'] });
    }
    // Every DynamoDB resource named is the definitions table or its indexes: not '*', no other table.
    const dynamoResources = statements
      .filter((s) => actionsOf(s).some((action) => action.startsWith('dynamodb:')))
      .flatMap(resourcesOf)
      .filter((resource) => JSON.stringify(resource) !== '{"Ref":"AWS::NoValue"}');
    for (const resource of dynamoResources) expect(JSON.stringify(resource)).toContain(`"${tableId}"`);
  });

  it('lets the system function read the definitions table but never write to it', () => {
    const statements = statementsOf(template, 'system');
    const actions = statements.flatMap(actionsOf);
    expect(actions).toContain('dynamodb:GetItem');
    for (const write of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']) {
      expect(actions).not.toContain(write);
    }
  });

  it('tells every route group function its store, log format and the names of exactly its tables', () => {
    for (const group of enabledGroups(ROUTE_GROUPS, DEFAULT_GATES)) {
      const environment = environmentOf(template, group.name);
      expect(environment).toMatchObject({
        SERVICE_STORE: 'dynamodb',
        SERVICE_LOG_FORMAT: 'json',
        NODE_OPTIONS: '--enable-source-maps',
      });
      const tables = group.grants.tables.map((grant) => grant.table.id);
      expect(tableVariables(environment)).toEqual(
        Object.fromEntries(
          tables.map((table) => [tableVariable(table), { Ref: tableIdOf(template, table) }]),
        ),
      );
    }
    expect(environmentOf(template, 'metadata')).toMatchObject({
      SERVICE_DYNAMODB_TABLES_DEFINITIONS: { Ref: tableId },
    });
  });
});

describe('ConductorStack decision pipeline', () => {
  let template: Template;
  let decisionsId: string;
  let timersId: string;

  beforeAll(() => {
    template = synth();
    decisionsId = queueIdOf(template, { FifoQueue: true, RedrivePolicy: Match.anyValue() }, 'decision queue');
    timersId = queueIdOf(
      template,
      // The schedule fire queue is standard too; the timer queue's visibility is six timer timeouts.
      {
        FifoQueue: Match.absent(),
        RedrivePolicy: Match.anyValue(),
        VisibilityTimeout: 6 * timer.timeoutSeconds,
      },
      'timer queue',
    );
  });

  const timeoutOf = (name: string): number => functionOf(template, name)[1].Timeout as number;

  it('keeps decide requests in an encrypted FIFO queue without content-based deduplication', () => {
    const queue = template.toJSON().Resources[decisionsId].Properties;
    expect(queue).toMatchObject({
      FifoQueue: true,
      ContentBasedDeduplication: false,
      DeduplicationScope: 'messageGroup',
      FifoThroughputLimit: 'perMessageGroupId',
      SqsManagedSseEnabled: true,
    });
    expect(queue.QueueName).toMatch(/^[A-Za-z0-9_-]+\.fifo$/);
    expect(queue.QueueName.length).toBeLessThanOrEqual(80);
  });

  it('gives the decision queue a visibility timeout of at least six decider timeouts', () => {
    const queue = template.toJSON().Resources[decisionsId].Properties;
    expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * timeoutOf('decider'));
  });

  it('moves a decide request to a FIFO dead-letter queue after five failed receives', () => {
    const queue = template.toJSON().Resources[decisionsId].Properties;
    expect(MAX_RECEIVE_COUNT).toBe(5);
    const dlqId = (queue.RedrivePolicy.deadLetterTargetArn as { 'Fn::GetAtt': [string, string] })[
      'Fn::GetAtt'
    ][0];
    expect(queue.RedrivePolicy.maxReceiveCount).toBe(MAX_RECEIVE_COUNT);
    expect(template.toJSON().Resources[dlqId].Properties).toMatchObject({
      FifoQueue: true,
      SqsManagedSseEnabled: true,
      QueueName: expect.stringMatching(/\.fifo$/),
    });
  });

  it('keeps delayed wake-ups in an encrypted standard queue with its own dead-letter queue', () => {
    const queue = template.toJSON().Resources[timersId].Properties;
    expect(queue).toMatchObject({
      SqsManagedSseEnabled: true,
      RedrivePolicy: { maxReceiveCount: MAX_RECEIVE_COUNT },
    });
    expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * timeoutOf('timer'));
    const dlqId = (queue.RedrivePolicy.deadLetterTargetArn as { 'Fn::GetAtt': [string, string] })[
      'Fn::GetAtt'
    ][0];
    expect(dlqId).not.toBe(timersId);
    expect(template.toJSON().Resources[dlqId].Properties).toMatchObject({ SqsManagedSseEnabled: true });
    expect(template.toJSON().Resources[dlqId].Properties.FifoQueue).toBeUndefined();
  });

  it('refuses plain HTTP on every queue', () => {
    const queues = Object.keys(template.findResources('AWS::SQS::Queue'));
    // Each consumer's queue and its dead-letter queue.
    expect(queues).toHaveLength(2 * QUEUE_CONSUMERS.length);
    for (const queueId of queues) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: queueId }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      });
    }
  });

  it('feeds the decider from the decision queue ten messages at a time, with partial batch failures', () => {
    const [deciderId] = functionOf(template, 'decider');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [decisionsId, 'Arn'] },
      FunctionName: { Ref: deciderId },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('feeds the timer consumer from the timer queue, with partial batch failures', () => {
    const [timerId] = functionOf(template, 'timer');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [timersId, 'Arn'] },
      FunctionName: { Ref: timerId },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(Object.keys(template.findResources('AWS::Lambda::EventSourceMapping'))).toHaveLength(
      QUEUE_CONSUMERS.length,
    );
  });

  it('feeds the system-task consumer (HTTP tasks) from its own queue, and lets the decider send to it', () => {
    const [systemId, props] = functionOf(template, 'system-tasks');
    const [queueId] = only(
      template.findResources('AWS::SQS::Queue', {
        Properties: { VisibilityTimeout: 6 * (props.Timeout as number), RedrivePolicy: Match.anyValue() },
      }),
      'system-task queue',
    );
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: { Ref: systemId },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(sqsActionsOn(template, 'decider', queueId)).toContain('sqs:SendMessage');
  });

  it('runs the sweeper every minute from an EventBridge rule, without Lambda retries', () => {
    const [sweeperId] = functionOf(template, 'sweeper');
    const [ruleId] = only(
      template.findResources('AWS::Events::Rule', {
        Properties: {
          ScheduleExpression: 'rate(1 minute)',
          Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [sweeperId, 'Arn'] } })],
        },
      }),
      'sweeper rule',
    );
    template.hasResourceProperties('AWS::Lambda::Permission', {
      FunctionName: { 'Fn::GetAtt': [sweeperId, 'Arn'] },
      Principal: 'events.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
    });
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: sweeperId },
      MaximumRetryAttempts: 0,
    });
  });

  it('lets the workflows and tasks functions request decides now and later', () => {
    for (const group of ['workflows', 'tasks']) {
      expect(sendsOf(group)).toEqual(['decisions', 'timers']);
      expect(sqsActionsOn(template, group, decisionsId)).toContain('sqs:SendMessage');
      expect(sqsActionsOn(template, group, timersId)).toContain('sqs:SendMessage');
      expect(sqsActionsOn(template, group, decisionsId)).not.toContain('sqs:ReceiveMessage');
    }
  });

  it('gives the system and metadata functions no queue at all', () => {
    for (const group of ['system', 'metadata']) {
      expect(
        statementsOf(template, group)
          .flatMap(actionsOf)
          .filter((a) => a.startsWith('sqs:')),
      ).toEqual([]);
      expect(environmentOf(template, group)).not.toHaveProperty('SERVICE_AWS_DECISION_QUEUE_URL');
    }
  });

  it('tells every function that requests decides both queue URLs', () => {
    const senders = [...Object.keys(CONSUMERS), 'workflows', 'tasks'];
    for (const name of senders) {
      expect(environmentOf(template, name)).toMatchObject({
        SERVICE_AWS_DECISION_QUEUE_URL: { Ref: decisionsId },
        SERVICE_AWS_TIMER_QUEUE_URL: { Ref: timersId },
      });
    }
  });

  it('lets the decider consume the decision queue, request decides and wake-ups, and never touch the timer queue otherwise', () => {
    const onDecisions = sqsActionsOn(template, 'decider', decisionsId);
    expect(onDecisions).toEqual(
      expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:SendMessage']),
    );
    expect(sqsActionsOn(template, 'decider', timersId)).toContain('sqs:SendMessage');
    expect(sqsActionsOn(template, 'decider', timersId)).not.toContain('sqs:ReceiveMessage');
  });

  it('lets the decider write runs and worker queues and only read definitions', () => {
    const statements = statementsOf(template, 'decider');
    const writesOn = (table: string) =>
      statements
        .filter((s) => JSON.stringify(s.Resource).includes(`"${tableIdOf(template, table)}"`))
        .flatMap(actionsOf)
        .filter((action) => WRITES.includes(action));
    expect(writesOn('executions')).toContain('dynamodb:PutItem');
    expect(writesOn('queues')).toContain('dynamodb:PutItem');
    expect(writesOn('definitions')).toEqual([]);
    // Task inputs and run outputs are checked against their schemas: read only.
    expect(writesOn('schemas')).toEqual([]);
    expect(dynamoActionsOf(template, 'decider')).toContain('dynamodb:GetItem');
    expect(Object.keys(tableVariables(environmentOf(template, 'decider'))).sort()).toEqual(
      ['definitions', 'executions', 'queues', 'schemas'].map(tableVariable).sort(),
    );
  });

  it('lets the schemas function write the schemas table only, and the workflows and tasks functions read it', () => {
    const writesOn = (fn: string, table: string) =>
      statementsOf(template, fn)
        .filter((s) => JSON.stringify(s.Resource).includes(`"${tableIdOf(template, table)}"`))
        .flatMap(actionsOf)
        .filter((action) => WRITES.includes(action));
    expect(writesOn('schemas', 'schemas')).toContain('dynamodb:PutItem');
    expect(Object.keys(tableVariables(environmentOf(template, 'schemas')))).toEqual([
      tableVariable('schemas'),
    ]);
    for (const fn of ['workflows', 'tasks']) {
      expect(writesOn(fn, 'schemas')).toEqual([]);
      expect(Object.keys(tableVariables(environmentOf(template, fn)))).toContain(tableVariable('schemas'));
    }
  });

  it('lets the sweeper read the executions table and send to the decision queue, and nothing more', () => {
    const dynamo = dynamoActionsOf(template, 'sweeper');
    expect(dynamo).toContain('dynamodb:Query');
    for (const write of WRITES) expect(dynamo).not.toContain(write);
    expect(Object.keys(tableVariables(environmentOf(template, 'sweeper')))).toEqual([
      tableVariable('executions'),
    ]);
    expect(sqsActionsOn(template, 'sweeper', decisionsId)).toContain('sqs:SendMessage');
    expect(sqsActionsOn(template, 'sweeper', timersId)).toEqual([]);
  });

  it('lets the timer consumer consume the timer queue and send to the decision queue, with no table', () => {
    expect(sqsActionsOn(template, 'timer', timersId)).toEqual(
      expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage']),
    );
    expect(sqsActionsOn(template, 'timer', timersId)).not.toContain('sqs:SendMessage');
    expect(sqsActionsOn(template, 'timer', decisionsId)).toContain('sqs:SendMessage');
    expect(dynamoActionsOf(template, 'timer')).toEqual([]);
  });

  it('gives the decider the time and memory to run scripts', () => {
    expect(timeoutOf('decider')).toBeGreaterThanOrEqual(30);
    expect(functionOf(template, 'decider')[1].MemorySize).toBeGreaterThanOrEqual(1024);
  });

  it('names the dead-letter queues in the stack outputs', () => {
    template.hasOutput('DecisionDeadLetterQueueUrl', { Value: { Ref: Match.anyValue() } });
    template.hasOutput('TimerDeadLetterQueueUrl', { Value: { Ref: Match.anyValue() } });
  });
});

describe('ConductorStack large payloads', () => {
  let template: Template;
  let bucketId: string;

  beforeAll(() => {
    template = synth();
    const output = template.findOutputs('FilesBucketName').FilesBucketName;
    if (output === undefined) throw new Error('No output FilesBucketName');
    bucketId = (output.Value as { Ref: string }).Ref;
  });

  const s3StatementsOf = (name: string): Statement[] =>
    statementsOf(template, name).filter((s) => actionsOf(s).some((action) => action.startsWith('s3:')));

  it.each(['workflows', 'tasks', 'decider'])(
    'lets the %s function read and put objects under payloads/ of the files bucket, and nothing else there',
    (name) => {
      const statements = s3StatementsOf(name);
      expect(statements).toHaveLength(1);
      const [statement] = statements;
      expect(statement?.Effect).toBe('Allow');
      expect(actionsOf(statement as Statement).sort()).toEqual(['s3:GetObject', 's3:PutObject']);
      expect(statement?.Resource).toEqual({
        'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/payloads/*']],
      });
      expect(environmentOf(template, name).SERVICE_AWS_PAYLOAD_BUCKET).toEqual({ Ref: bucketId });
    },
  );

  it.each(['metadata', 'system', 'sweeper', 'timer'])(
    'gives the %s function neither the bucket nor its name',
    (name) => {
      expect(s3StatementsOf(name)).toEqual([]);
      expect(environmentOf(template, name).SERVICE_AWS_PAYLOAD_BUCKET).toBeUndefined();
    },
  );
});

describe('ConductorStack gates', () => {
  // The metadata capability served behind the scheduler gate: a stand-in for a future gated group
  // (CAPABILITIES has none yet), pointing at a real handler file so the function synthesizes.
  const gatedGroups: Capability[] = [
    { ...systemCapability, apiRoutes: ['GET /health'] },
    { ...metadataCapability, gate: 'scheduler' },
  ];
  const allOff: Gates = { scheduler: false, fileStorage: false, messageQueue: false, agents: false };
  let gateOff: Template;
  let gateOn: Template;

  beforeAll(() => {
    gateOff = synth({ gates: allOff, capabilities: gatedGroups });
    gateOn = synth({ gates: { ...allOff, scheduler: true, agents: true }, capabilities: gatedGroups });
  });

  it("passes each gate's value to the functions as its service property", () => {
    expect(environmentOf(gateOff, 'system')).toMatchObject({
      SERVICE_SCHEDULER_ENABLED: 'false',
      SERVICE_FILE_STORAGE_ENABLED: 'false',
      SERVICE_WORKFLOW_MESSAGE_QUEUE_ENABLED: 'false',
      SERVICE_INTEGRATIONS_AI_ENABLED: 'false',
    });
    expect(environmentOf(gateOn, 'system')).toMatchObject({
      SERVICE_SCHEDULER_ENABLED: 'true',
      SERVICE_FILE_STORAGE_ENABLED: 'false',
      SERVICE_INTEGRATIONS_AI_ENABLED: 'true',
    });
  });

  it('leaves out the function and routes of a gated route group while its gate is off', () => {
    expect(routeKeys(gateOff)).toEqual(['GET /health']);
    expect(
      gateOff.findResources('AWS::Lambda::Function', {
        Properties: { Description: "Conductor route group 'metadata'" },
      }),
    ).toEqual({});
    // The route groups that are left (system) and the background work no gate switches off (the
    // decision pipeline, the sweeper, the system-task consumer; not the scheduler's tick and fire
    // consumer).
    const ungated = [...QUEUE_CONSUMERS, ...JOBS].filter((work) => work.gate === undefined);
    expect(ungated.map((work) => work.name).sort()).toEqual(['decider', 'sweeper', 'system-tasks', 'timer']);
    expect(Object.keys(serviceFunctions(gateOff))).toHaveLength(1 + ungated.length);
  });

  it('deploys the function and routes of a gated route group once its gate is on', () => {
    expect(routeKeys(gateOn)).toEqual(['ANY /api/metadata/{proxy+}', 'GET /health']);
    expect(environmentOf(gateOn, 'metadata')).toMatchObject({ SERVICE_SCHEDULER_ENABLED: 'true' });
  });
});

describe('ConductorStack scheduler', () => {
  let template: Template;
  let schedulesId: string;
  let tableId: string;

  beforeAll(() => {
    template = synth();
    tableId = tableIdOf(template, 'schedules');
    schedulesId = queueIdOf(
      template,
      {
        FifoQueue: Match.absent(),
        RedrivePolicy: Match.anyValue(),
        VisibilityTimeout: 6 * scheduleFire.timeoutSeconds,
      },
      'schedule fire queue',
    );
  });

  it('ticks every minute from one EventBridge rule for all schedules, without Lambda retries', () => {
    const [tickId] = functionOf(template, 'schedule-tick');
    const rules = template.findResources('AWS::Events::Rule', {
      Properties: { Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [tickId, 'Arn'] } })] },
    });
    expect(Object.values(rules).map((r) => r.Properties.ScheduleExpression)).toEqual(['rate(1 minute)']);
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: tickId },
      MaximumRetryAttempts: 0,
    });
  });

  it('lets the tick read and move schedules and send fires, and nothing else', () => {
    expect(sqsActionsOn(template, 'schedule-tick', schedulesId)).toContain('sqs:SendMessage');
    expect(Object.keys(tableVariables(environmentOf(template, 'schedule-tick'))).sort()).toEqual(
      ['definitions', 'schedules'].map(tableVariable).sort(),
    );
    expect(environmentOf(template, 'schedule-tick')).toMatchObject({
      SERVICE_AWS_SCHEDULE_QUEUE_URL: { Ref: schedulesId },
    });
  });

  it('feeds the fire consumer from its standard queue with a dead-letter queue and partial batch failures', () => {
    const [fireId] = functionOf(template, 'schedule-fire');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [schedulesId, 'Arn'] },
      FunctionName: { Ref: fireId },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const queue = template.toJSON().Resources[schedulesId].Properties;
    expect(queue.RedrivePolicy.maxReceiveCount).toBe(MAX_RECEIVE_COUNT);
    expect(template.findOutputs('ScheduleDeadLetterQueueUrl')).not.toEqual({});
  });

  it('lets the fire consumer start runs and record executions', () => {
    expect(Object.keys(tableVariables(environmentOf(template, 'schedule-fire'))).sort()).toEqual(
      ['definitions', 'executions', 'queues', 'schedules'].map(tableVariable).sort(),
    );
    expect(dynamoActionsOf(template, 'schedule-fire')).toContain('dynamodb:PutItem');
    expect(environmentOf(template, 'schedule-fire')).toHaveProperty('SERVICE_AWS_PAYLOAD_BUCKET');
  });

  it('serves /api/scheduler from its own function, which may send fires and only read definitions', () => {
    expect(routeKeys(template)).toContain('ANY /api/scheduler/{proxy+}');
    expect(sqsActionsOn(template, 'scheduler', schedulesId)).toContain('sqs:SendMessage');
    const definitionsId = tableIdOf(template, 'definitions');
    const writesOnDefinitions = statementsOf(template, 'scheduler')
      .filter((s) => JSON.stringify(s.Resource).includes(`"${definitionsId}"`))
      .flatMap(actionsOf)
      .filter((action) => WRITES.includes(action));
    expect(writesOnDefinitions).toEqual([]);
  });

  it('indexes the next run time of the schedules table', () => {
    const table = template.toJSON().Resources[tableId].Properties;
    const indexes = (table.GlobalSecondaryIndexes as { IndexName: string; KeySchema: unknown }[]).map((i) => [
      i.IndexName,
      i.KeySchema,
    ]);
    expect(indexes).toContainEqual([
      'due',
      [
        { AttributeName: 'dueKey', KeyType: 'HASH' },
        { AttributeName: 'dueAt', KeyType: 'RANGE' },
      ],
    ]);
  });

  it('deploys no scheduler function, tick, fire queue or route while the gate is off', () => {
    const off = synth({ gates: { ...DEFAULT_GATES, scheduler: false } });
    for (const description of [
      CONSUMERS['schedule-tick'],
      CONSUMERS['schedule-fire'],
      "Conductor route group 'scheduler'",
    ]) {
      expect(
        off.findResources('AWS::Lambda::Function', { Properties: { Description: description } }),
      ).toEqual({});
    }
    // The other consumers' queues and their dead-letter queues remain; the fire queue's are gone.
    const ungatedConsumers = QUEUE_CONSUMERS.filter((consumer) => consumer.gate === undefined);
    expect(Object.keys(off.findResources('AWS::SQS::Queue'))).toHaveLength(2 * ungatedConsumers.length);
    expect(routeKeys(off)).not.toContain('ANY /api/scheduler/{proxy+}');
  });
});
