// Template assertions for the management UI on AWS (infra/constructs/ui.ts): a private bucket
// behind CloudFront on one origin with the API, `/api/*` routed to API Gateway uncached, client
// routes rewritten to index.html by a viewer-request function that never sees the API, and the
// built UI uploaded with cache headers, access logs kept a month in a private bucket. The SPA
// rewrite itself runs here on sample paths.
import { runInNewContext } from 'node:vm';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiPathPatterns, SPA_REWRITE } from '../../infra/constructs/ui.ts';
import { ConductorStack } from '../../infra/stack.ts';
import { useTempDirs } from '../helpers/temp.ts';
import { fakeUiDist, PRIVATE_ENCRYPTED_BUCKET, unbundledApp } from './synth.ts';

const temp = useTempDirs();

type Resource = { Properties: Record<string, unknown> };

describe('the management UI on AWS', () => {
  let template: Template;

  beforeAll(() => {
    const uiDir = fakeUiDist(temp('conductor-ui-dist-'), { 'index-abc.js': 'console.log(1)' });
    const app = unbundledApp(temp('conductor-cdk-ui-'));
    const gates = { scheduler: true, fileStorage: false, messageQueue: false, agents: false };
    template = Template.fromStack(new ConductorStack(app, 'UiTest', { gates, uiDir }));
  }, 180_000); // one synth of the whole stack: seconds alone, a minute or more on a loaded machine

  const distribution = () => {
    const found = Object.values(template.findResources('AWS::CloudFront::Distribution')) as Resource[];
    expect(found).toHaveLength(1);
    return (found[0] as Resource).Properties.DistributionConfig as Record<string, unknown>;
  };

  it('serves the UI bucket by default, over HTTPS, with index.html at the root', () => {
    const config = distribution();
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.DefaultCacheBehavior).toMatchObject({ ViewerProtocolPolicy: 'redirect-to-https' });
    const origins = config.Origins as {
      Id: string;
      DomainName: unknown;
      S3OriginConfig?: unknown;
      OriginAccessControlId?: unknown;
    }[];
    const s3 = origins.find((o) => o.S3OriginConfig !== undefined);
    expect(s3?.OriginAccessControlId).toBeDefined();
    expect(JSON.stringify(s3?.DomainName)).toContain('UiBucket');
  });

  it('routes /api/* and every other API path to the HTTP API uncached, forwarding every viewer header but Host', () => {
    const config = distribution();
    const behaviors = config.CacheBehaviors as Record<string, unknown>[];
    // Swagger UI, the API document and the health check are API routes outside /api: the UI's
    // bucket must not answer them.
    expect(behaviors.map((b) => b.PathPattern).sort()).toEqual([
      '/api-docs',
      '/api/*',
      '/health',
      '/swagger-ui/*',
    ]);
    expect(new Set(behaviors.map((b) => b.TargetOriginId)).size).toBe(1);
    const api = behaviors.find((b) => b.PathPattern === '/api/*') as Record<string, unknown>;
    expect(api.AllowedMethods).toEqual(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']);
    // Managed policies: CachingDisabled and AllViewerExceptHostHeader.
    expect(api.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
    expect(api.OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac');
    expect(api.FunctionAssociations).toBeUndefined();
    const origins = config.Origins as { Id: string; DomainName: unknown; CustomOriginConfig?: unknown }[];
    const apiOrigin = origins.find((o) => o.Id === api.TargetOriginId);
    expect(apiOrigin?.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
    expect(JSON.stringify(apiOrigin?.DomainName)).toContain('ApiHttpApi');
  });

  it('derives the API paths from the route keys: up to the first parameter, nothing /api/* covers', () => {
    expect(
      apiPathPatterns([
        'GET /health',
        'ANY /api/workflow/{proxy+}',
        'GET /swagger-ui/{file}',
        'GET /api-docs',
        'POST /api/token',
      ]),
    ).toEqual(['/api/*', '/health', '/swagger-ui/*', '/api-docs']);
  });

  it('rewrites client routes to index.html on the bucket behaviour only', () => {
    const config = distribution();
    const associations = (config.DefaultCacheBehavior as Record<string, unknown>).FunctionAssociations as {
      EventType: string;
    }[];
    expect(associations.map((a) => a.EventType)).toEqual(['viewer-request']);
    template.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionCode: SPA_REWRITE,
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-1.0' }),
    });
    const rewrite = (uri: string): string => {
      const request = { uri };
      runInNewContext(`${SPA_REWRITE}; handler({ request })`, { request });
      return request.uri;
    };
    expect(rewrite('/schemas/edit/order/2')).toBe('/index.html');
    expect(rewrite('/')).toBe('/index.html');
    expect(rewrite('/assets/index-abc.js')).toBe('/assets/index-abc.js');
  });

  it('keeps the UI in a private bucket reachable only through CloudFront', () => {
    const buckets = template.findResources('AWS::S3::Bucket');
    const [id, bucket] = Object.entries(buckets).find(([key]) => key.startsWith('UiBucket')) ?? [];
    expect(id).toBeDefined();
    expect((bucket as Resource).Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, RestrictPublicBuckets: true },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: id },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Action: 's3:GetObject',
          }),
        ]),
      },
    });
  });

  it("logs the distribution's viewer requests and the UI bucket's requests to a private bucket, kept a month", () => {
    const [logsId, logs] =
      Object.entries(template.findResources('AWS::S3::Bucket')).find(([key]) =>
        key.startsWith('UiAccessLogs'),
      ) ?? [];
    expect(logsId).toBeDefined();
    expect((logs as Resource).Properties).toMatchObject({
      ...PRIVATE_ENCRYPTED_BUCKET,
      // CloudFront's standard logs are delivered with an object ACL.
      OwnershipControls: { Rules: [{ ObjectOwnership: 'ObjectWriter' }] },
      LifecycleConfiguration: { Rules: [{ ExpirationInDays: 30, Status: 'Enabled' }] },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logsId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
    expect(distribution().Logging).toEqual({
      Bucket: { 'Fn::GetAtt': [logsId, 'RegionalDomainName'] },
      Prefix: 'cloudfront/',
    });
    template.hasResourceProperties('AWS::S3::Bucket', {
      LoggingConfiguration: { DestinationBucketName: { Ref: logsId }, LogFilePrefix: 'ui-bucket/' },
    });
  });

  it('uploads the built UI: hashed assets cached for a year, index.html revalidated and invalidated', () => {
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment')) as Resource[];
    expect(deployments).toHaveLength(2);
    const controls = deployments.map((d) => d.Properties.SystemMetadata);
    expect(controls).toEqual(
      expect.arrayContaining([
        { 'cache-control': 'public, max-age=31536000, immutable' },
        { 'cache-control': 'no-cache' },
      ]),
    );
    const index = deployments.find((d) => JSON.stringify(d.Properties.SystemMetadata).includes('no-cache'));
    expect(index?.Properties.DistributionPaths).toEqual(['/index.html']);
    expect(deployments.every((d) => d.Properties.Prune === false)).toBe(true);
  });

  it('outputs the UI address', () => {
    template.hasOutput('UiUrl', { Value: Match.objectLike({ 'Fn::Join': Match.anyValue() }) });
  });
});
