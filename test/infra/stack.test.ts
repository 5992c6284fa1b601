// Assertions on the synthesized CloudFormation template of ConductorStack (bundling skipped).
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALARM_DEFAULTS, TABLE_OPERATIONS } from '../../infra/constructs/alarms.ts';
import { DEFAULT_API_LIMITS } from '../../infra/constructs/api-stage.ts';
import { pascalCase } from '../../infra/constructs/names.ts';
import {
  backgroundDescription,
  ConductorStack,
  type ConductorStackProps,
  enabledGroups,
  type Gates,
  JOB_MAX_EVENT_AGE,
  JOB_RETRY_ATTEMPTS,
} from '../../infra/stack.ts';
import {
  grantedTables,
  JOBS,
  PAYLOAD_REFERENCE_TABLES,
  CONSUMERS as QUEUE_CONSUMERS,
  CAPABILITIES as ROUTE_GROUPS,
  routeGroupGrants,
  STREAM_CONSUMERS,
  TABLES,
} from '../../lib/capabilities.ts';
import type { Capability } from '../../lib/capability-contract.ts';
import { queueUrlProperty } from '../../lib/catalog.ts';
import { envNameOf, unknownServiceVariables } from '../../lib/config/load.ts';
import { EVENT_SOURCES_DESCRIPTION } from '../../lib/events/sources.ts';
import { MAX_RECEIVE_COUNT, timer } from '../../lib/jobs/decision-consumers.ts';
import { DELAYED_QUEUE_AGE_ALARM_SECONDS } from '../../lib/jobs/types.ts';
import { metadataCapability } from '../../lib/metadata/capability.ts';
import { PAYLOAD_PREFIX, UNREFERENCED_TAG } from '../../lib/payloads/keys.ts';
import { scheduleFire } from '../../lib/scheduler/schedule-fire.ts';
import { keyAttributeTypes, projectionOf } from '../../lib/store/dynamodb/tables.ts';
import { systemCapability } from '../../lib/system/capability.ts';
import { MAX_WAIT_SECONDS } from '../../lib/workflows/execute.ts';
import { useTempDirs } from '../helpers/temp.ts';
import { PRIVATE_ENCRYPTED_BUCKET, unbundledApp } from './synth.ts';

/** The work queues each capability may send to (its grants). */
const sendsOf = (name: string) => ROUTE_GROUPS.find((c) => c.name === name)?.grants.sends;

/** The defaults of lib/config/properties.ts. */
const DEFAULT_GATES: Gates = { scheduler: true, fileStorage: false, messageQueue: false, agents: false };

const temp = useTempDirs();

/** Synthesizes a stack without running esbuild, into a temp dir removed after the file. */
function synth(props: Partial<ConductorStackProps> = {}): Template {
  const app = unbundledApp(temp('conductor-cdk-test-'));
  return Template.fromStack(new ConductorStack(app, 'Test', { gates: DEFAULT_GATES, ...props }));
}

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

/** Every background function, stream consumers (deployed with their search backend only) included. */
const BACKGROUND: Record<string, string> = {
  ...CONSUMERS,
  ...Object.fromEntries(STREAM_CONSUMERS.map((work) => [work.name, backgroundDescription(work)])),
};

/** A route group's function, or one of the CONSUMERS. */
function functionOf(template: Template, name: string): [string, Properties] {
  const description = BACKGROUND[name] ?? `Conductor route group '${name}'`;
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

/** The properties of the one event source mapping that feeds a function. */
function eventSourceOf(template: Template, name: string): Properties {
  const [fnId] = functionOf(template, name);
  return only(
    template.findResources('AWS::Lambda::EventSourceMapping', {
      Properties: { FunctionName: { Ref: fnId } },
    }),
    `${name} event source`,
  )[1];
}

/** A stack without the stream consumer's function, and with no table streamed at all. */
function expectNoStreamConsumer(template: Template, name: string): void {
  expect(
    template.findResources('AWS::Lambda::Function', { Properties: { Description: BACKGROUND[name] } }),
  ).toEqual({});
  const tables = Object.values(template.findResources('AWS::DynamoDB::Table'));
  expect(tables.every((table) => table.Properties.StreamSpecification === undefined)).toBe(true);
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

/** A periodic job's function retries a failed run, then parks it in the jobs' dead-letter queue. */
function expectRetriedIntoJobDeadLetters(template: Template, functionId: string): void {
  const dlqId = jobDeadLettersId(template);
  template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
    FunctionName: { Ref: functionId },
    MaximumRetryAttempts: JOB_RETRY_ATTEMPTS,
    MaximumEventAgeInSeconds: JOB_MAX_EVENT_AGE.toSeconds(),
    DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [dlqId, 'Arn'] } } },
  });
  template.hasResourceProperties('AWS::Events::Rule', {
    Targets: [
      Match.objectLike({
        Arn: { 'Fn::GetAtt': [functionId, 'Arn'] },
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [dlqId, 'Arn'] } },
      }),
    ],
  });
}

/** The logical id of the resource an output names by `Ref`. */
function outputRef(template: Template, name: string): string {
  const output = template.findOutputs(name)[name];
  if (output === undefined) throw new Error(`No output ${name}`);
  return (output.Value as { Ref: string }).Ref;
}

/** The logical id of the periodic jobs' dead-letter queue, through the output naming it. */
const jobDeadLettersId = (template: Template): string => outputRef(template, 'JobDeadLetterQueueUrl');

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

  it('answers no CORS by default (the UI shares its origin through CloudFront), and only the origins it is given', () => {
    const [, api] = only(template.findResources('AWS::ApiGatewayV2::Api'), 'HTTP API');
    expect(api.ProtocolType).toBe('HTTP');
    expect(api.CorsConfiguration).toBeUndefined();
    const origins = ['https://app.example.com', 'http://localhost:5173'];
    synth({ corsOrigins: origins }).hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: {
        AllowOrigins: origins,
        AllowMethods: Match.arrayWith(['GET', 'POST', 'PUT', 'DELETE']),
        AllowHeaders: ['content-type', 'x-authorization'],
      },
    });
    expect(() => synth({ corsOrigins: ['*'] })).toThrow(
      /CORS origin '\*' would let any web page call the API/,
    );
    expect(() => synth({ corsOrigins: ['https://app.example.com/ui'] })).toThrow(
      /is not an origin: give the scheme, host and port only/,
    );
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
      Properties: PRIVATE_ENCRYPTED_BUCKET,
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
        Rules: Match.arrayWith([
          Match.objectLike({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }),
        ]),
      },
    });
  });

  it('expires the payloads the payload sweep tagged unreferenced, and no payload by age alone', () => {
    const [, bucket] = only(
      template.findResources('AWS::S3::Bucket', { Properties: { CorsConfiguration: Match.anyValue() } }),
      'files bucket',
    );
    const rules = (bucket.LifecycleConfiguration as { Rules: Record<string, unknown>[] }).Rules;
    expect(rules).toHaveLength(2);
    expect(rules[1]).toEqual({
      Id: 'ExpireUnreferencedPayloads',
      Prefix: PAYLOAD_PREFIX,
      TagFilters: [{ Key: UNREFERENCED_TAG.Key, Value: UNREFERENCED_TAG.Value }],
      ExpirationInDays: 1,
      Status: 'Enabled',
    });
    // No rule expires objects under payloads/ without the tag.
    for (const rule of rules) {
      if (rule.ExpirationInDays !== undefined) expect(rule.TagFilters).toBeDefined();
    }
  });

  it('runs the payload sweep once a day: it lists and tags payloads, reads the tables that name them, and writes nothing', () => {
    const [, fn] = functionOf(template, 'payload-sweep');
    expect(fn.Timeout).toBe(900);
    expect(fn.ReservedConcurrentExecutions).toBe(1);
    const [fnId] = functionOf(template, 'payload-sweep');
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 day)',
      Targets: Match.arrayWith([Match.objectLike({ Arn: { 'Fn::GetAtt': [fnId, 'Arn'] } })]),
    });
    const [bucketId] = only(
      template.findResources('AWS::S3::Bucket', { Properties: { CorsConfiguration: Match.anyValue() } }),
      'files bucket',
    );
    const statements = statementsOf(template, 'payload-sweep');
    const s3 = statements.filter((st) => JSON.stringify(st.Action).includes('s3:'));
    expect(s3).toEqual([
      {
        Effect: 'Allow',
        Action: ['s3:GetObject', 's3:PutObjectTagging'],
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, `/${PAYLOAD_PREFIX}*`]] },
      },
      {
        Effect: 'Allow',
        Action: 's3:ListBucket',
        Resource: { 'Fn::GetAtt': [bucketId, 'Arn'] },
        Condition: { StringLike: { 's3:prefix': [`${PAYLOAD_PREFIX}*`] } },
      },
    ]);
    // Every table that may name a payload, read only: the executions and schedules tables.
    const dynamo = statements.filter((st) => JSON.stringify(st.Action).includes('dynamodb:'));
    const actions = dynamo.flatMap((st) => (Array.isArray(st.Action) ? st.Action : [st.Action]));
    expect(actions.some((action) => /Put|Update|Delete|Write/.test(action))).toBe(false);
    const tables = new Set(
      dynamo.flatMap((st) =>
        (Array.isArray(st.Resource) ? st.Resource : [st.Resource]).map(
          (r) => JSON.stringify(r).match(/"(Data\w+?)[0-9A-F]{8}"/)?.[1],
        ),
      ),
    );
    expect([...tables].sort()).toEqual(['DataExecutions', 'DataSchedules']);
    expect(PAYLOAD_REFERENCE_TABLES.map((t) => t.id).sort()).toEqual(['executions', 'schedules']);
    expect(environmentOf(template, 'payload-sweep')).toMatchObject({
      SERVICE_AWS_PAYLOAD_BUCKET: { Ref: bucketId },
      SERVICE_DYNAMODB_TABLES_EXECUTIONS: { Ref: tableIdOf(template, 'executions') },
      SERVICE_DYNAMODB_TABLES_SCHEDULES: { Ref: tableIdOf(template, 'schedules') },
    });
  });

  it('lets the metadata function write to the definitions table and to nothing else', () => {
    const statements = statementsOf(template, 'metadata');
    const writes = statements.filter((s) => actionsOf(s).includes('dynamodb:PutItem'));
    expect(writes.length).toBeGreaterThan(0);
    for (const statement of writes) {
      expect(statement.Effect).toBe('Allow');
      expect(resourcesOf(statement)).toContainEqual({ 'Fn::GetAtt': [tableId, 'Arn'] });
      expect(JSON.stringify(resourcesOf(statement))).not.toContain(tableIdOf(template, 'applications'));
    }
    // Every DynamoDB resource named is the definitions table or its indexes, or the applications
    // table its token checks read: not '*', no other table.
    const dynamoResources = statements
      .filter((s) => actionsOf(s).some((action) => action.startsWith('dynamodb:')))
      .flatMap(resourcesOf)
      .filter((resource) => JSON.stringify(resource) !== '{"Ref":"AWS::NoValue"}');
    const applications = tableIdOf(template, 'applications');
    for (const resource of dynamoResources) {
      expect(JSON.stringify(resource)).toMatch(new RegExp(`"(${tableId}|${applications})"`));
    }
  });

  it('lets every route group function read the applications table (token checks), and only its own function write it', () => {
    const applications = tableIdOf(template, 'applications');
    for (const group of enabledGroups(ROUTE_GROUPS, DEFAULT_GATES)) {
      const onApplications = statementsOf(template, group.name)
        .filter((s) => JSON.stringify(s.Resource).includes(`"${applications}"`))
        .flatMap(actionsOf);
      expect(onApplications, group.name).toContain('dynamodb:GetItem');
      const writes = onApplications.filter((action) => WRITES.includes(action));
      if (group.name === 'applications') expect(writes).toContain('dynamodb:PutItem');
      else expect(writes, group.name).toEqual([]);
    }
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
      });
      // No source maps ship (infra/constructs/service-function.ts), so none are enabled.
      expect(environment).not.toHaveProperty('NODE_OPTIONS');
      // The stack requires keys by default: every group also reads what token checks need.
      const tables = grantedTables(routeGroupGrants(group, true)).map((grant) => grant.table.id);
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

  it('sets no SERVICE_ variable that names no property, so no function warns of its environment at start', () => {
    const functions = Object.values(serviceFunctions(template));
    expect(functions.length).toBeGreaterThan(8);
    for (const fn of functions) {
      const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(unknownServiceVariables(variables), String(fn.Properties.Description)).toEqual([]);
    }
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
    // Each consumer's queue and its dead-letter queue, and the periodic jobs' dead-letter queue.
    expect(queues).toHaveLength(2 * QUEUE_CONSUMERS.length + 1);
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

  it('gives every function that decides runs the system-task queue: its URL and the right to send', () => {
    const [systemId, props] = functionOf(template, 'system-tasks');
    const [queueId] = only(
      template.findResources('AWS::SQS::Queue', {
        Properties: { VisibilityTimeout: 6 * (props.Timeout as number), RedrivePolicy: Match.anyValue() },
      }),
      'system-task queue',
    );
    expect(systemId).toBeTruthy();
    // The decider consumer, and the workflows routes (sync execute decides inside the request).
    for (const name of ['decider', 'workflows']) {
      expect(sqsActionsOn(template, name, queueId)).toContain('sqs:SendMessage');
      expect(environmentOf(template, name)[envNameOf(queueUrlProperty('system-tasks'))]).toEqual({
        Ref: queueId,
      });
    }
  });

  it('runs the sweeper every minute from an EventBridge rule, retried, then sent to a dead-letter queue', () => {
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
    expectRetriedIntoJobDeadLetters(template, sweeperId);
  });

  it('lets the workflows and tasks functions request decides now and later', () => {
    // Sync execute decides in the workflows function: its HTTP tasks go to the system-task queue
    // and its EVENT tasks to the events queue.
    expect(sendsOf('workflows')).toEqual(['decisions', 'timers', 'system-tasks', 'events']);
    expect(sendsOf('tasks')).toEqual(['decisions', 'timers']);
    for (const group of ['workflows', 'tasks']) {
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
    const sending = [...QUEUE_CONSUMERS, ...JOBS].filter((work) => work.grants.sends.length > 0);
    expect(sending.length).toBeGreaterThan(4);
    const senders = [...sending.map((work) => work.name), 'workflows', 'tasks'];
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
      ['definitions', 'executions', 'messages', 'queues', 'schemas'].map(tableVariable).sort(),
    );
  });

  it('lets the schemas function write the schemas table only, and the workflows and tasks functions read it', () => {
    const writesOn = (fn: string, table: string) =>
      statementsOf(template, fn)
        .filter((s) => JSON.stringify(s.Resource).includes(`"${tableIdOf(template, table)}"`))
        .flatMap(actionsOf)
        .filter((action) => WRITES.includes(action));
    expect(writesOn('schemas', 'schemas')).toContain('dynamodb:PutItem');
    expect(Object.keys(tableVariables(environmentOf(template, 'schemas'))).sort()).toEqual(
      [tableVariable('applications'), tableVariable('schemas')].sort(),
    );
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
    // decision pipeline, the sweeper, the system-task and event-handler consumers; not the
    // scheduler's tick and fire consumer).
    const ungated = [...QUEUE_CONSUMERS, ...JOBS].filter((work) => work.gate === undefined);
    expect(ungated.map((work) => work.name).sort()).toEqual([
      'decider',
      'event-handlers',
      'payload-sweep',
      'sweeper',
      'system-tasks',
      'timer',
    ]);
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

  it('ticks every minute from one EventBridge rule for all schedules, retried, then sent to a dead-letter queue', () => {
    const [tickId] = functionOf(template, 'schedule-tick');
    const rules = template.findResources('AWS::Events::Rule', {
      Properties: { Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [tickId, 'Arn'] } })] },
    });
    expect(Object.values(rules).map((r) => r.Properties.ScheduleExpression)).toEqual(['rate(1 minute)']);
    expectRetriedIntoJobDeadLetters(template, tickId);
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

  it('lets the fire consumer start runs (reading their input schemas) and record executions', () => {
    expect(Object.keys(tableVariables(environmentOf(template, 'schedule-fire'))).sort()).toEqual(
      ['definitions', 'executions', 'queues', 'schedules', 'schemas'].map(tableVariable).sort(),
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
    // The other consumers' queues and their dead-letter queues remain (and the sweeper's
    // dead-letter queue); the fire queue's are gone.
    const ungatedConsumers = QUEUE_CONSUMERS.filter((consumer) => consumer.gate === undefined);
    expect(Object.keys(off.findResources('AWS::SQS::Queue'))).toHaveLength(2 * ungatedConsumers.length + 1);
    expect(routeKeys(off)).not.toContain('ANY /api/scheduler/{proxy+}');
  });
});

describe('ConductorStack search backend', () => {
  let plain: Template;
  let withSearch: Template;
  let executionsId: string;

  beforeAll(() => {
    plain = synth();
    withSearch = synth({ searchBackend: 'opensearch' });
    executionsId = tableIdOf(withSearch, 'executions');
  });

  const roleIdOf = (template: Template, name: string): string =>
    (functionOf(template, name)[1].Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];

  const aossStatements = (template: Template, name: string) =>
    statementsOf(template, name).filter((s) => actionsOf(s).some((a) => a.startsWith('aoss:')));

  /** The data access policy with every role ARN written as `role:<logical id>`. */
  function accessPolicy(
    template: Template,
  ): { Rules: { Resource: string[]; Permission: string[] }[]; Principal: string[]; Description: string }[] {
    const [, properties] = only(
      template.findResources('AWS::OpenSearchServerless::AccessPolicy'),
      'access policy',
    );
    const [, parts] = (properties.Policy as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
    const text = parts
      .map((part) =>
        typeof part === 'string'
          ? part
          : `role:${(part as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0]}`,
      )
      .join('');
    return JSON.parse(text);
  }

  it('by default needs nothing but DynamoDB: no collection, no stream, no indexer, no search grant', () => {
    for (const type of ['Collection', 'SecurityPolicy', 'AccessPolicy']) {
      plain.resourceCountIs(`AWS::OpenSearchServerless::${type}`, 0);
    }
    expectNoStreamConsumer(plain, 'search-indexer');
    const mappings = Object.values(plain.findResources('AWS::Lambda::EventSourceMapping'));
    expect(mappings.every((mapping) => mapping.Properties.StartingPosition === undefined)).toBe(true);
    for (const name of ['workflows', 'tasks']) {
      expect(environmentOf(plain, name)[envNameOf('service.search.backend')]).toBeUndefined();
      expect(aossStatements(plain, name)).toEqual([]);
    }
  });

  it('streams the executions table with new images, and no other table', () => {
    const streamed = Object.entries(withSearch.findResources('AWS::DynamoDB::Table'))
      .filter(([, table]) => table.Properties.StreamSpecification !== undefined)
      .map(([id, table]) => [id, table.Properties.StreamSpecification]);
    expect(streamed).toEqual([[executionsId, { StreamViewType: 'NEW_IMAGE' }]]);
  });

  it('creates a SEARCH collection once its encryption (AWS-owned key) and public-IAM network policies exist', () => {
    const [collectionId, collection] = only(
      withSearch.findResources('AWS::OpenSearchServerless::Collection'),
      'collection',
    );
    expect(collection).toMatchObject({ Name: 'test-search', Type: 'SEARCH' });
    const policies = withSearch.findResources('AWS::OpenSearchServerless::SecurityPolicy');
    const byType = Object.fromEntries(
      Object.entries(policies).map(([id, p]) => [
        p.Properties.Type,
        { id, policy: JSON.parse(p.Properties.Policy) },
      ]),
    );
    expect(byType.encryption?.policy).toEqual({
      Rules: [{ ResourceType: 'collection', Resource: ['collection/test-search'] }],
      AWSOwnedKey: true,
    });
    expect(byType.network?.policy).toEqual([
      {
        Rules: [{ ResourceType: 'collection', Resource: ['collection/test-search'] }],
        AllowFromPublic: true,
      },
    ]);
    const dependsOn = withSearch.toJSON().Resources[collectionId].DependsOn;
    expect(dependsOn).toEqual(expect.arrayContaining([byType.encryption?.id, byType.network?.id]));
  });

  it('feeds the indexer from the executions stream in order, halving failing batches, failures to a DLQ', () => {
    const mapping = eventSourceOf(withSearch, 'search-indexer');
    expect(mapping).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [executionsId, 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
    });
    const dlq = (
      mapping.DestinationConfig as { OnFailure: { Destination: { 'Fn::GetAtt': [string, string] } } }
    ).OnFailure.Destination['Fn::GetAtt'][0];
    expect(withSearch.toJSON().Resources[dlq].Type).toBe('AWS::SQS::Queue');
    expect(sqsActionsOn(withSearch, 'search-indexer', dlq)).toContain('sqs:SendMessage');
    expect(withSearch.findOutputs('SearchIndexerDeadLetterQueueUrl')).not.toEqual({});
  });

  it('lets the indexer read the stream and no table data, and tells it the collection but no table', () => {
    const dynamo = dynamoActionsOf(withSearch, 'search-indexer');
    expect(dynamo).toEqual(expect.arrayContaining(['dynamodb:GetRecords', 'dynamodb:GetShardIterator']));
    for (const action of [...WRITES, 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Scan']) {
      expect(dynamo).not.toContain(action);
    }
    const environment = environmentOf(withSearch, 'search-indexer');
    expect(tableVariables(environment)).toEqual({});
    expect(environment[envNameOf('service.search.backend')]).toBe('opensearch');
  });

  it('grants the collection API to the indexer and the search route groups only, and writes to the indexer only', () => {
    const [collectionId] = only(
      withSearch.findResources('AWS::OpenSearchServerless::Collection'),
      'collection',
    );
    const granted = ['search-indexer', 'workflows', 'tasks'];
    for (const name of granted) {
      expect(aossStatements(withSearch, name)).toEqual([
        expect.objectContaining({
          Action: 'aoss:APIAccessAll',
          Resource: { 'Fn::GetAtt': [collectionId, 'Arn'] },
        }),
      ]);
    }
    for (const name of ['decider', 'timer', 'sweeper', 'metadata', 'system']) {
      expect(aossStatements(withSearch, name)).toEqual([]);
      expect(environmentOf(withSearch, name)[envNameOf('service.search.backend')]).toBeUndefined();
    }
    const rules = accessPolicy(withSearch);
    const reader = rules.find((rule) => rule.Description === 'search routes');
    const writer = rules.find((rule) => rule.Description === 'search indexer');
    expect(rules).toHaveLength(2);
    expect(reader?.Principal.sort()).toEqual(
      [`role:${roleIdOf(withSearch, 'workflows')}`, `role:${roleIdOf(withSearch, 'tasks')}`].sort(),
    );
    expect(reader?.Rules).toEqual([
      {
        ResourceType: 'index',
        Resource: ['index/test-search/conductor-*'],
        Permission: ['aoss:DescribeIndex', 'aoss:ReadDocument'],
      },
    ]);
    expect(writer?.Principal).toEqual([`role:${roleIdOf(withSearch, 'search-indexer')}`]);
    expect(writer?.Rules[0]?.Permission).toEqual(
      expect.arrayContaining(['aoss:WriteDocument', 'aoss:CreateIndex']),
    );
  });

  it('tells the search route groups to answer from the collection endpoint', () => {
    const [collectionId] = only(
      withSearch.findResources('AWS::OpenSearchServerless::Collection'),
      'collection',
    );
    for (const name of ['workflows', 'tasks']) {
      const environment = environmentOf(withSearch, name);
      expect(environment[envNameOf('service.search.backend')]).toBe('opensearch');
      expect(environment[envNameOf('service.search.opensearch.endpoint')]).toEqual({
        'Fn::GetAtt': [collectionId, 'CollectionEndpoint'],
      });
      expect(environment[envNameOf('service.search.opensearch.service')]).toBe('aoss');
    }
  });
});

describe('ConductorStack retention: expired runs', () => {
  let plain: Template;
  let retained: Template;
  let both: Template;

  beforeAll(() => {
    plain = synth({ properties: { 'service.workflow.retention': '0' } });
    retained = synth({ properties: { 'service.workflow.retention': '30d' } });
    both = synth({ searchBackend: 'opensearch', properties: { 'service.workflow.retention': '7d' } });
  });

  it('adds no stream and no cleaner while runs are kept forever', () => {
    expectNoStreamConsumer(plain, 'expired-runs');
  });

  it('with a retention, streams the executions table to the cleaner, filtered to TTL removals of run items', () => {
    const executionsId = tableIdOf(retained, 'executions');
    const table = retained.toJSON().Resources[executionsId];
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    const mapping = eventSourceOf(retained, 'expired-runs');
    expect(mapping).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [executionsId, 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
    });
    const filters = (mapping.FilterCriteria as { Filters: { Pattern: string }[] }).Filters;
    expect(filters.map((f) => JSON.parse(f.Pattern))).toEqual([
      {
        eventName: ['REMOVE'],
        userIdentity: { type: ['Service'], principalId: ['dynamodb.amazonaws.com'] },
        dynamodb: { Keys: { sk: { S: ['WF'] } } },
      },
    ]);
    expect(retained.findOutputs('ExpiredRunsDeadLetterQueueUrl')).not.toEqual({});
  });

  it('lets the cleaner read and delete executions items, and names its table', () => {
    const dynamo = dynamoActionsOf(retained, 'expired-runs');
    expect(dynamo).toEqual(
      expect.arrayContaining(['dynamodb:Query', 'dynamodb:BatchWriteItem', 'dynamodb:DeleteItem']),
    );
    expect(Object.keys(tableVariables(environmentOf(retained, 'expired-runs')))).toEqual([
      envNameOf('service.dynamodb.tables.executions'),
    ]);
  });

  it('runs the cleaner and the search indexer side by side on one stream', () => {
    const indexer = eventSourceOf(both, 'search-indexer');
    const cleaner = eventSourceOf(both, 'expired-runs');
    expect(indexer.EventSourceArn).toEqual(cleaner.EventSourceArn);
    expect(indexer.FilterCriteria).toBeUndefined();
  });
});

describe('ConductorStack event handlers', () => {
  let template: Template;
  let queueId: string;

  beforeAll(() => {
    template = synth();
    const [, props] = functionOf(template, 'event-handlers');
    [queueId] = only(
      template.findResources('AWS::SQS::Queue', {
        Properties: { VisibilityTimeout: 6 * (props.Timeout as number), RedrivePolicy: Match.anyValue() },
      }),
      'event queue',
    );
  });

  it('feeds the event-handler consumer from the events queue, and lets the EVENT task runners send to it', () => {
    const [fnId] = functionOf(template, 'event-handlers');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: { Ref: fnId },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    // The EVENT task runners, and the events API (POST /api/event/handleIncomingEvent).
    for (const sender of ['decider', 'workflows', 'events']) {
      expect(sqsActionsOn(template, sender, queueId)).toContain('sqs:SendMessage');
      expect(environmentOf(template, sender)).toHaveProperty('SERVICE_AWS_EVENT_QUEUE_URL', { Ref: queueId });
    }
    expect(sqsActionsOn(template, 'tasks', queueId)).toEqual([]);
    expect(template.findOutputs('EventDeadLetterQueueUrl')).toHaveProperty('EventDeadLetterQueueUrl');
  });

  it('lets the consumer record executions and change runs, with the script worker', () => {
    const [, props] = functionOf(template, 'event-handlers');
    expect(Object.keys(tableVariables(environmentOf(template, 'event-handlers'))).sort()).toEqual(
      ['definitions', 'eventhandlers', 'executions', 'messages', 'queues', 'schemas']
        .map(tableVariable)
        .sort(),
    );
    expect(props.Timeout).toBe(90);
  });

  it('creates no source function, rule or sink permission when no event sources or sinks are configured', () => {
    expect(
      template.findResources('AWS::Lambda::Function', {
        Properties: { Description: EVENT_SOURCES_DESCRIPTION },
      }),
    ).toEqual({});
    expect(JSON.stringify(statementsOf(template, 'decider'))).not.toContain('events:PutEvents');
  });

  it('feeds the configured SQS sources and EventBridge rules to one function, which carries out handlers', () => {
    const configured = synth({
      outsideSources: {
        events: [
          { type: 'sqs', queue: 'orders' },
          { type: 'eventbridge', bus: 'commerce', detailType: 'OrderPlaced' },
        ],
      },
    });
    const [fnId, props] = only(
      configured.findResources('AWS::Lambda::Function', {
        Properties: { Description: EVENT_SOURCES_DESCRIPTION },
      }),
      'event-sources function',
    );
    expect(props.Timeout).toBe(60);
    configured.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      EventSourceArn: Match.objectLike({
        'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp(':orders$')])],
      }),
    });
    const [, rule] = only(
      configured.findResources('AWS::Events::Rule', {
        Properties: { EventPattern: { 'detail-type': ['OrderPlaced'] } },
      }),
      'source rule',
    );
    expect(rule.EventBusName).toBe('commerce');
    const [target] = rule.Targets as { Arn: unknown; InputTransformer: { InputTemplate: string } }[];
    expect(target?.Arn).toEqual({ 'Fn::GetAtt': [fnId, 'Arn'] });
    expect(target?.InputTransformer.InputTemplate).toContain('"event":"eventbridge:commerce:OrderPlaced"');
    // It reads the handlers and records executions like the consumer.
    const [, fn] = only(
      configured.findResources('AWS::Lambda::Function', {
        Properties: { Description: EVENT_SOURCES_DESCRIPTION },
      }),
      'event-sources function',
    );
    const variables = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables).toHaveProperty(tableVariable('eventhandlers'));
    // SQS consumption of the source queue is granted on its ARN.
    const policies = JSON.stringify(configured.findResources('AWS::IAM::Policy'));
    expect(policies).toContain('sqs:ReceiveMessage');
    expect(policies).toMatch(/:orders"/);
  });

  it('lets the EVENT task runners publish to the configured sinks only', () => {
    const configured = synth({
      eventSinks: [
        { type: 'sqs', queue: 'shipments' },
        { type: 'eventbridge', bus: 'audit' },
      ],
    });
    for (const runner of ['decider', 'workflows']) {
      const statements = statementsOf(configured, runner);
      const publish = statements.filter((s) => actionsOf(s).includes('events:PutEvents'));
      expect(JSON.stringify(publish.flatMap(resourcesOf))).toContain('event-bus/audit');
      const send = statements.filter(
        (s) => actionsOf(s).includes('sqs:GetQueueUrl') && JSON.stringify(s.Resource).includes(':shipments'),
      );
      expect(send.flatMap(actionsOf)).toContain('sqs:SendMessage');
    }
    // The events API sends to the events queue only: it publishes to no sink.
    for (const other of ['tasks', 'events']) {
      expect(JSON.stringify(statementsOf(configured, other))).not.toContain('events:PutEvents');
      expect(JSON.stringify(statementsOf(configured, other))).not.toContain(':shipments');
    }
  });
});

describe('ConductorStack operations: alarms, limits, tracing, least privilege', () => {
  let template: Template;
  let topicId: string;

  beforeAll(() => {
    template = synth({ operations: { alarmEmail: 'ops@example.com' } });
    [topicId] = only(template.findResources('AWS::SNS::Topic'), 'alarm topic');
  }, 60_000);

  /** The alarms on a metric of one resource, each sending to the topic when it fires and clears. */
  function alarmsOn(metricName: string, dimension: unknown): Properties[] {
    const alarms = Object.values(
      template.findResources('AWS::CloudWatch::Alarm', { Properties: { MetricName: metricName } }),
    ).map((alarm) => alarm.Properties as Properties);
    return alarms.filter((alarm) => JSON.stringify(alarm.Dimensions).includes(JSON.stringify(dimension)));
  }

  function expectAlarm(metricName: string, dimension: unknown, threshold: number): void {
    const alarms = alarmsOn(metricName, dimension);
    expect(alarms, `${metricName} alarm on ${JSON.stringify(dimension)}`).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      Threshold: threshold,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId }],
      OKActions: [{ Ref: topicId }],
    });
  }

  it('sends alarms to one SNS topic, subscribed by email when the stack is given an address', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: topicId },
    });
    template.hasOutput('AlarmTopicArn', { Value: { Ref: topicId } });
    const quiet = synth();
    quiet.resourceCountIs('AWS::SNS::Topic', 1);
    quiet.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('raises an alarm on the first message in any dead-letter queue, the jobs one included', () => {
    const dlqIds = [
      ...QUEUE_CONSUMERS.map((consumer) => outputRef(template, consumer.queue.deadLetters.output)),
      jobDeadLettersId(template),
    ];
    expect(new Set(dlqIds).size).toBe(QUEUE_CONSUMERS.length + 1);
    for (const dlqId of dlqIds) {
      const name = { Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId, 'QueueName'] } };
      expectAlarm('ApproximateNumberOfMessagesVisible', name, 1);
    }
  });

  it("raises an alarm when any work queue's oldest message waits too long: five minutes, or 20 with delays", () => {
    const [decisionsId] = only(
      template.findResources('AWS::SQS::Queue', {
        Properties: { FifoQueue: true, RedrivePolicy: Match.objectLike({}) },
      }),
      'decision queue',
    );
    const queueName = (id: string) => ({ Name: 'QueueName', Value: { 'Fn::GetAtt': [id, 'QueueName'] } });
    expectAlarm('ApproximateAgeOfOldestMessage', queueName(decisionsId), 300);
    // Every consumer's queue (the queue whose redrive policy names its dead-letter queue).
    const deployed = QUEUE_CONSUMERS.filter((consumer) => !consumer.gate || DEFAULT_GATES[consumer.gate]);
    expect(deployed.length).toBeGreaterThanOrEqual(4);
    for (const consumer of deployed) {
      const dlqId = outputRef(template, consumer.queue.deadLetters.output);
      const [queueId] = only(
        template.findResources('AWS::SQS::Queue', {
          Properties: {
            RedrivePolicy: Match.objectLike({ deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] } }),
          },
        }),
        `${consumer.queue.name} queue`,
      );
      expectAlarm(
        'ApproximateAgeOfOldestMessage',
        queueName(queueId),
        consumer.queue.oldestMessageAlarmSeconds,
      );
    }
    expect(timer.queue.oldestMessageAlarmSeconds).toBe(DELAYED_QUEUE_AGE_ALARM_SECONDS);
    expect(DELAYED_QUEUE_AGE_ALARM_SECONDS).toBe(1200);
  });

  /** The alarms on a metric math expression whose metrics include one on `dimension`. */
  function mathAlarmsOn(metricName: string, dimension: unknown): Properties[] {
    return Object.values(template.findResources('AWS::CloudWatch::Alarm'))
      .map((alarm) => alarm.Properties as Properties)
      .filter((alarm) => {
        const metrics = (alarm.Metrics ?? []) as {
          MetricStat?: { Metric: { MetricName: string; Dimensions: unknown } };
        }[];
        return metrics.some(
          (m) =>
            m.MetricStat?.Metric.MetricName === metricName &&
            JSON.stringify(m.MetricStat.Metric.Dimensions).includes(JSON.stringify(dimension)),
        );
      });
  }

  it("raises an alarm on every function's error rate, not on a single error, and on any throttle", () => {
    // Every function of the service; CDK's own deploy-time function for the UI bucket is not one.
    const functions = Object.keys(serviceFunctions(template));
    expect(functions.length).toBeGreaterThan(8);
    for (const fnId of functions) {
      const dimension = { Name: 'FunctionName', Value: { Ref: fnId } };
      // No alarm on the bare error count any more.
      expect(alarmsOn('Errors', dimension)).toEqual([]);
      const [rate, ...others] = mathAlarmsOn('Errors', dimension);
      expect(others).toEqual([]);
      expect(rate).toMatchObject({
        Threshold: ALARM_DEFAULTS.functionErrorRatePercent,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
        AlarmActions: [{ Ref: topicId }],
        OKActions: [{ Ref: topicId }],
      });
      const metrics = rate?.Metrics as {
        Id: string;
        Expression?: string;
        ReturnData?: boolean;
        MetricStat?: { Metric: { MetricName: string }; Period: number; Stat: string };
      }[];
      const stats = Object.fromEntries(metrics.flatMap((m) => (m.MetricStat ? [[m.Id, m.MetricStat]] : [])));
      expect(stats.errors).toMatchObject({ Metric: { MetricName: 'Errors' }, Period: 300, Stat: 'Sum' });
      expect(stats.invocations).toMatchObject({
        Metric: { MetricName: 'Invocations' },
        Period: 300,
        Stat: 'Sum',
      });
      const [expression] = metrics.filter((m) => m.Expression !== undefined);
      expect(expression?.Expression).toBe(
        'IF(invocations >= 10 AND errors >= 2, 100 * errors / invocations, 0)',
      );
      expectAlarm('Throttles', dimension, 1);
    }
  });

  it('judges the error rate only past two errors in ten invocations: one error in five minutes does not page', () => {
    // The expression as CloudWatch evaluates it, on a few five-minute periods.
    const rate = (errors: number, invocations: number) =>
      invocations >= ALARM_DEFAULTS.functionMinInvocations && errors >= ALARM_DEFAULTS.functionMinErrors
        ? (100 * errors) / invocations
        : 0;
    const pages = (errors: number, invocations: number) =>
      rate(errors, invocations) >= ALARM_DEFAULTS.functionErrorRatePercent;
    expect(pages(1, 1)).toBe(false);
    expect(pages(1, 10)).toBe(false);
    expect(pages(1, 12)).toBe(false);
    expect(pages(2, 10)).toBe(true);
    expect(pages(2, 100)).toBe(false);
    expect(pages(5, 100)).toBe(true);
    expect(pages(9, 9)).toBe(false);
  });

  it("raises alarms on every table's throttled requests and DynamoDB system errors, summed over the operations used", () => {
    const tables = template.findResources('AWS::DynamoDB::Table');
    expect(Object.keys(tables)).toHaveLength(TABLES.length);
    for (const tableId of Object.keys(tables)) {
      const dimension = { Name: 'TableName', Value: { Ref: tableId } };
      for (const [metricName, threshold] of [
        ['ThrottledRequests', ALARM_DEFAULTS.tableThrottledRequests],
        ['SystemErrors', ALARM_DEFAULTS.tableSystemErrors],
      ] as const) {
        const [alarm, ...others] = mathAlarmsOn(metricName, dimension);
        expect(others, `${metricName} alarms of ${tableId}`).toEqual([]);
        expect(alarm).toMatchObject({ Threshold: threshold, AlarmActions: [{ Ref: topicId }] });
        const metrics = alarm?.Metrics as {
          Expression?: string;
          MetricStat?: { Metric: { Dimensions: { Name: string; Value: unknown }[] } };
        }[];
        const operations = metrics.flatMap(
          (m) =>
            m.MetricStat?.Metric.Dimensions.filter((d) => d.Name === 'Operation').map((d) => d.Value) ?? [],
        );
        expect(operations.sort()).toEqual([...TABLE_OPERATIONS].sort());
        // A metric math alarm takes at most ten metrics.
        expect(metrics.filter((m) => m.MetricStat).length).toBeLessThanOrEqual(10);
        expect(metrics.filter((m) => m.Expression !== undefined)).toHaveLength(1);
      }
    }
  });

  it('raises an alarm when the API answers 5xx', () => {
    const [apiId] = only(template.findResources('AWS::ApiGatewayV2::Api'), 'HTTP API');
    expectAlarm('5xx', { Name: 'ApiId', Value: { Ref: apiId } }, 5);
  });

  it('throttles the API stage at the default rate and burst, or at those the stack is given', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: {
        ThrottlingRateLimit: DEFAULT_API_LIMITS.rateLimit,
        ThrottlingBurstLimit: DEFAULT_API_LIMITS.burstLimit,
      },
    });
    synth({ operations: { apiLimits: { rateLimit: 20, burstLimit: 40 } } }).hasResourceProperties(
      'AWS::ApiGatewayV2::Stage',
      { DefaultRouteSettings: { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 } },
    );
    expect(() => synth({ operations: { apiLimits: { rateLimit: 0, burstLimit: 40 } } })).toThrow(
      /rateLimit must be a positive whole number/,
    );
  });

  it('writes one JSON access log line per request, without query strings or headers', () => {
    const [, stage] = only(template.findResources('AWS::ApiGatewayV2::Stage'), 'API stage');
    const settings = stage.AccessLogSettings as { DestinationArn: unknown; Format: string };
    const [logGroupId] = (settings.DestinationArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
    expect(template.toJSON().Resources[logGroupId].Type).toBe('AWS::Logs::LogGroup');
    const format = JSON.parse(settings.Format) as Record<string, string>;
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      method: '$context.httpMethod',
      path: '$context.path',
      status: '$context.status',
    });
    expect(settings.Format).not.toMatch(/querystring|header|authorizer|\$request/i);
  });

  it('caps the concurrency of every SQS event source', () => {
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping'));
    expect(mappings).toHaveLength(QUEUE_CONSUMERS.length);
    const caps = mappings.map(
      (m) => (m.Properties.ScalingConfig as { MaximumConcurrency?: number })?.MaximumConcurrency,
    );
    expect(caps.sort()).toEqual(QUEUE_CONSUMERS.map((c) => c.queue.maxConcurrency).sort());
    for (const cap of caps) expect(cap).toBeGreaterThanOrEqual(2);
  });

  it('reserves one execution for each periodic job, so a job never overlaps itself, unless told not to', () => {
    for (const job of JOBS) {
      const [, fn] = functionOf(template, job.name);
      expect(fn.ReservedConcurrentExecutions).toBe(1);
    }
    const app = unbundledApp(temp('conductor-cdk-test-'));
    const stack = new ConductorStack(app, 'Unreserved', {
      gates: DEFAULT_GATES,
      operations: { reserveConcurrency: false },
    });
    const unreserved = Template.fromStack(stack);
    for (const fn of Object.values(unreserved.findResources('AWS::Lambda::Function'))) {
      expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
    }
    // Synth says what that costs.
    Annotations.fromStack(stack).hasWarning(
      '*',
      Match.stringLikeRegexp('reserveConcurrency=false: .*delay every decide'),
    );
  });

  it('reserves the decider and the timer consumer their whole event-source concurrency, so API bursts cannot starve decides', () => {
    const reserved = QUEUE_CONSUMERS.filter((consumer) => consumer.reserved);
    expect(reserved.map((consumer) => consumer.name).sort()).toEqual(['decider', 'timer']);
    for (const consumer of QUEUE_CONSUMERS.filter((c) => !c.gate || DEFAULT_GATES[c.gate])) {
      const [, fn] = functionOf(template, consumer.name);
      expect(fn.ReservedConcurrentExecutions, consumer.name).toBe(
        consumer.reserved ? consumer.queue.maxConcurrency : undefined,
      );
    }
    // The route groups are not reserved (a reservation would also cap them at that number).
    for (const group of enabledGroups(ROUTE_GROUPS, DEFAULT_GATES)) {
      const [, fn] = functionOf(template, group.name);
      expect(fn.ReservedConcurrentExecutions, group.name).toBeUndefined();
    }
    // What the account gives up to them: the docs state the limit this needs.
    const total = Object.values(serviceFunctions(template)).reduce(
      (sum, fn) => sum + ((fn.Properties.ReservedConcurrentExecutions as number | undefined) ?? 0),
      0,
    );
    expect(total).toBeLessThanOrEqual(60);
  });

  it('bills the tables by provisioned capacity when told, auto scaled on utilization per table and global index', () => {
    const provisioned = synth({
      operations: { tableCapacity: { mode: 'provisioned', minUnits: 5, maxUnits: 800 } },
    });
    const tables = Object.values(provisioned.findResources('AWS::DynamoDB::Table'));
    expect(tables).toHaveLength(TABLES.length);
    for (const table of tables) {
      // CloudFormation's default billing mode is PROVISIONED; CDK leaves it out.
      expect(table.Properties.BillingMode ?? 'PROVISIONED').toBe('PROVISIONED');
      expect(table.Properties.ProvisionedThroughput).toEqual({ ReadCapacityUnits: 5, WriteCapacityUnits: 5 });
      for (const index of (table.Properties.GlobalSecondaryIndexes ?? []) as Properties[]) {
        expect(index.ProvisionedThroughput).toEqual({ ReadCapacityUnits: 5, WriteCapacityUnits: 5 });
      }
    }
    // Reads and writes of every table and every global index scale between the bounds.
    const indexes = TABLES.reduce((sum, spec) => sum + spec.indexes.length, 0);
    const targets = Object.values(provisioned.findResources('AWS::ApplicationAutoScaling::ScalableTarget'));
    expect(targets).toHaveLength(2 * (TABLES.length + indexes));
    for (const target of targets)
      expect(target.Properties).toMatchObject({ MinCapacity: 5, MaxCapacity: 800 });
    const policies = Object.values(provisioned.findResources('AWS::ApplicationAutoScaling::ScalingPolicy'));
    expect(policies).toHaveLength(targets.length);
    for (const policy of policies) {
      expect(policy.Properties.TargetTrackingScalingPolicyConfiguration).toMatchObject({ TargetValue: 70 });
    }
    // On-demand is the default, with nothing to scale.
    expect(template.findResources('AWS::ApplicationAutoScaling::ScalableTarget')).toEqual({});
  });

  it('traces every function with X-Ray', () => {
    const functions = Object.values(serviceFunctions(template));
    for (const fn of functions) expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
  });

  it("ends a sync execute's wait with time to answer before the workflows function times out", () => {
    const [, fn] = functionOf(template, 'workflows');
    // The wait's deadline counts from the request's start; the last look and the answer need a
    // few store reads, and API Gateway gives up at 30 s.
    expect(fn.Timeout as number).toBeGreaterThanOrEqual(MAX_WAIT_SECONDS + 3);
    expect(fn.Timeout as number).toBeLessThan(30);
  });

  it('grants no wildcard action and no unscoped resource but the X-Ray writes, which take none', () => {
    // CDK's BucketDeployment (the UI upload, run once per deploy, never by a request) is CDK's
    // own construct with CDK's grants on the asset and UI buckets: it is left out, and only it.
    const cdkDeployment = (policy: { Properties: { Roles?: { Ref?: string }[] } }) =>
      (policy.Properties.Roles ?? []).some((role) => role.Ref?.startsWith('CustomCDKBucketDeployment'));
    const documents = [
      ...Object.values(template.findResources('AWS::IAM::Policy'))
        .filter((policy) => !cdkDeployment(policy as { Properties: { Roles?: { Ref?: string }[] } }))
        .map((p) => p.Properties.PolicyDocument as { Statement: Statement[] }),
      ...Object.entries(template.findResources('AWS::IAM::Role'))
        .filter(([id]) => !id.startsWith('CustomCDKBucketDeployment'))
        .flatMap(([, role]) =>
          ((role.Properties.Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[]).map(
            (p) => p.PolicyDocument,
          ),
        ),
    ];
    const statements = documents.flatMap((d) => d.Statement).filter((s) => s.Effect === 'Allow');
    expect(statements.length).toBeGreaterThan(20);
    // X-Ray's PutTraceSegments and PutTelemetryRecords have no resource type to scope to
    // (Service Authorization Reference, "AWS X-Ray"): "*" is their only resource.
    const xrayWrites = ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'];
    const offending = statements.filter((statement) => {
      const actions = actionsOf(statement);
      if (actions.some((action) => action.includes('*'))) return true;
      const unscoped = resourcesOf(statement).some((resource) => resource === '*');
      return unscoped && !actions.every((action) => xrayWrites.includes(action));
    });
    expect(offending).toEqual([]);
    // No role of the service's functions carries a managed policy (Lambda's basic execution policy
    // would let it create and write every log group of the account); CDK's handler keeps CDK's.
    for (const [id, role] of Object.entries(template.findResources('AWS::IAM::Role'))) {
      if (id.startsWith('CustomCDKBucketDeployment')) continue;
      expect(role.Properties.ManagedPolicyArns, `managed policies of ${id}`).toBeUndefined();
    }
  });

  it('lets every function write its own log group and no other', () => {
    const functions = serviceFunctions(template);
    expect(Object.keys(functions).length).toBeGreaterThan(10);
    for (const [fnId, fn] of Object.entries(functions)) {
      const logGroup = (fn.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
      const [roleId] = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
      const logStatements = Object.values(
        template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } }),
      )
        .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement)
        .filter((statement) => actionsOf(statement).some((action) => action.startsWith('logs:')));
      expect(logStatements, fnId).toEqual([
        {
          Effect: 'Allow',
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Resource: { 'Fn::GetAtt': [logGroup, 'Arn'] },
        },
      ]);
    }
  });
});
