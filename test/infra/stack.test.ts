// Assertions on the synthesized CloudFormation template of ConductorStack (bundling skipped).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pascalCase } from '../../infra/constructs/names.ts';
import { ConductorStack, type ConductorStackProps, enabledGroups, type Gates } from '../../infra/stack.ts';
import { ROUTE_GROUPS, type RouteGroupSpec } from '../../lib/http/route-table.ts';
import { keyAttributeTypes, projectionOf, TABLES } from '../../lib/store/dynamodb/tables.ts';

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

function functionOf(template: Template, group: string): [string, Properties] {
  return only(
    template.findResources('AWS::Lambda::Function', {
      Properties: { Description: `Conductor route group '${group}'` },
    }),
    `function for route group '${group}'`,
  );
}

function environmentOf(template: Template, group: string): Record<string, unknown> {
  const [, fn] = functionOf(template, group);
  return (fn.Environment as { Variables: Record<string, unknown> }).Variables;
}

/** Every statement of the policies attached to the route group function's role. */
function statementsOf(template: Template, group: string): Statement[] {
  const [, fn] = functionOf(template, group);
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
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    expect(functions).toHaveLength(enabledGroups(ROUTE_GROUPS, DEFAULT_GATES).length);
    for (const fn of functions) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'] });
    }
  });

  it('creates exactly one route per API route of each enabled route group', () => {
    const expected = enabledGroups(ROUTE_GROUPS, DEFAULT_GATES).flatMap((group) => group.apiRoutes);
    expect(routeKeys(template)).toEqual([...expected].sort());
    expect(expected).toEqual(
      expect.arrayContaining(['ANY /api/metadata/{proxy+}', 'GET /api/version', 'GET /health']),
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

  it('tells every function its table, store and log format as service properties', () => {
    for (const group of enabledGroups(ROUTE_GROUPS, DEFAULT_GATES)) {
      expect(environmentOf(template, group.name)).toMatchObject({
        SERVICE_DYNAMODB_TABLES_DEFINITIONS: { Ref: tableId },
        SERVICE_STORE: 'dynamodb',
        SERVICE_LOG_FORMAT: 'json',
        NODE_OPTIONS: '--enable-source-maps',
      });
    }
  });
});

describe('ConductorStack gates', () => {
  // The metadata entry served behind the scheduler gate: a stand-in for a future gated group
  // (ROUTE_GROUPS has none yet), pointing at a real handler file so the function synthesizes.
  const gatedGroups: RouteGroupSpec[] = [
    { name: 'system', apiRoutes: ['GET /health'] },
    { name: 'metadata', apiRoutes: ['ANY /api/metadata/{proxy+}'], gate: 'scheduler' },
  ];
  const allOff: Gates = { scheduler: false, fileStorage: false, messageQueue: false, agents: false };
  let gateOff: Template;
  let gateOn: Template;

  beforeAll(() => {
    gateOff = synth({ gates: allOff, routeGroups: gatedGroups });
    gateOn = synth({ gates: { ...allOff, scheduler: true, agents: true }, routeGroups: gatedGroups });
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
    expect(Object.keys(gateOff.findResources('AWS::Lambda::Function'))).toHaveLength(1);
  });

  it('deploys the function and routes of a gated route group once its gate is on', () => {
    expect(routeKeys(gateOn)).toEqual(['ANY /api/metadata/{proxy+}', 'GET /health']);
    expect(environmentOf(gateOn, 'metadata')).toMatchObject({ SERVICE_SCHEDULER_ENABLED: 'true' });
  });
});
