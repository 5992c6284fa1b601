// The files capability on AWS (ConductorStack with file storage on; bundling skipped): store-a on
// the stack's bucket under files/, least-privilege grants, and `service` refused at synth time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConductorStack, type ConductorStackProps, type Gates } from '../../infra/stack.ts';

const GATES: Gates = { scheduler: true, fileStorage: true, messageQueue: false, agents: false };
const outdirs: string[] = [];

function stack(props: Partial<ConductorStackProps> = {}): ConductorStack {
  const outdir = mkdtempSync(join(tmpdir(), 'conductor-files-cdk-'));
  outdirs.push(outdir);
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  return new ConductorStack(app, 'Test', { gates: GATES, ...props });
}

afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

type Resource = { Properties: Record<string, unknown> };

describe('ConductorStack file storage', () => {
  let template: Template;
  let bucketId: string;
  let fn: Resource;
  let statements: { Effect: string; Action: string | string[]; Resource: unknown }[];

  beforeAll(() => {
    template = Template.fromStack(stack());
    const output = template.findOutputs('FilesBucketName').FilesBucketName;
    if (!output) throw new Error('No output FilesBucketName');
    bucketId = (output.Value as { Ref: string }).Ref;
    const functions = Object.values(
      template.findResources('AWS::Lambda::Function', {
        Properties: { Description: "Conductor route group 'files'" },
      }),
    ) as Resource[];
    expect(functions).toHaveLength(1);
    fn = functions[0] as Resource;
    const [roleId] = (fn.Properties.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'];
    statements = Object.values(
      template.findResources('AWS::IAM::Policy', {
        Properties: { Roles: Match.arrayWith([{ Ref: roleId }]) },
      }),
    ).flatMap((p) => (p.Properties.PolicyDocument as { Statement: typeof statements }).Statement);
  });

  it('routes /api/files and everything under it to the files function', () => {
    const keys = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
      (r) => r.Properties.RouteKey as string,
    );
    expect(keys).toEqual(expect.arrayContaining(['ANY /api/files', 'ANY /api/files/{proxy+}']));
  });

  it('configures store-a on the stack’s bucket, in the stack’s region, under files/', () => {
    const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(env).toMatchObject({
      SERVICE_FILE_STORAGE_ENABLED: 'true',
      SERVICE_FILE_STORAGE_TYPE: 'store-a',
      SERVICE_FILE_STORAGE_STORE_A_BUCKET: { Ref: bucketId },
      SERVICE_FILE_STORAGE_STORE_A_REGION: { Ref: 'AWS::Region' },
      SERVICE_FILE_STORAGE_STORE_A_PREFIX: 'files/',
    });
  });

  it('lets the files function get, put and abort uploads under files/ only, never list or delete', () => {
    const s3 = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('s3:')));
    const files = s3.find((s) => JSON.stringify(s.Resource).includes('/files/*'));
    expect([files?.Action].flat().sort()).toEqual([
      's3:AbortMultipartUpload',
      's3:GetObject',
      's3:PutObject',
    ]);
    expect(files?.Resource).toEqual({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/files/*']] });
    const actions = s3.flatMap((s) => [s.Action].flat());
    expect(actions).not.toContain('s3:ListBucket');
    expect(actions).not.toContain('s3:DeleteObject');
    expect(actions.some((a) => a.includes('*'))).toBe(false);
  });

  it('lets the files function write its own table and only read runs', () => {
    const dynamo = statements.flatMap((s) => [s.Action].flat()).filter((a) => a.startsWith('dynamodb:'));
    expect(dynamo).toContain('dynamodb:PutItem');
    const writers = statements.filter((s) => [s.Action].flat().includes('dynamodb:PutItem'));
    expect(JSON.stringify(writers)).toContain('Filerecords');
    expect(JSON.stringify(writers)).not.toContain('Executions');
  });

  it('aborts incomplete multipart uploads on the bucket', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
        ]),
      },
    });
  });

  it('refuses the service backend at synth time with a clear message', () => {
    expect(() => stack({ properties: { 'service.file-storage.type': 'service' } })).toThrow(
      /service\.file-storage\.type=service cannot be deployed on AWS: API Gateway and Lambda cap request bodies near 6 MB/,
    );
  });

  it('does not configure store-a when the deployer picks an S3-compatible store', () => {
    const other = Template.fromStack(
      stack({
        properties: {
          'service.file-storage.type': 'store-b',
          'service.file-storage.store-b.endpoint': 'https://s3.example.com',
          'service.file-storage.store-b.bucket': 'b',
        },
      }),
    );
    const [files] = Object.values(
      other.findResources('AWS::Lambda::Function', {
        Properties: { Description: "Conductor route group 'files'" },
      }),
    ) as Resource[];
    if (!files) throw new Error('No files function');
    const env = (files.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(env).toMatchObject({
      SERVICE_FILE_STORAGE_TYPE: 'store-b',
      SERVICE_FILE_STORAGE_STORE_B_BUCKET: 'b',
    });
    expect(env.SERVICE_FILE_STORAGE_STORE_A_BUCKET).toBeUndefined();
  });

  it('deploys no files function while the gate is off, whatever the backend property', () => {
    const off = Template.fromStack(
      stack({
        gates: { ...GATES, fileStorage: false },
        properties: { 'service.file-storage.type': 'service' },
      }),
    );
    expect(
      off.findResources('AWS::Lambda::Function', {
        Properties: { Description: "Conductor route group 'files'" },
      }),
    ).toEqual({});
  });

  it('refuses a deployer property that properties.ts does not define', () => {
    expect(() => stack({ properties: { 'service.file-storage.nope': 'x' } })).toThrow(/does not define/);
  });
});
