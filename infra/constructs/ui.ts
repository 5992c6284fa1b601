/**
 * The management UI on AWS: the built UI (ui/dist) in a private S3 bucket behind CloudFront, on
 * the same origin as the API: CloudFront sends `/api/*` and every other path an API route serves
 * (`/health`, `/api-docs`, `/swagger-ui/*`) to the HTTP API (nothing cached, every viewer header
 * but Host forwarded) and everything else to the bucket through origin access control, so the UI
 * never shadows a route. A CloudFront Function on the bucket's behaviour answers client-side routes
 * (`/schemas/edit/x`) with index.html, so a reload works; it never sees `/api/*`, so API errors
 * are never rewritten (distribution-wide error responses would rewrite the API's 404s too).
 * Hashed assets are cached for a year, index.html revalidated on every load. The distribution's
 * access log and the UI bucket's server access log go to a log bucket of their own, kept a month.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CfnOutput, Duration, Fn, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CachePolicy,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  OriginRequestPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { DIST_DIR, isStale, UI_DIR } from '../../ui/build.ts';

export interface ManagementUiProps {
  /** The HTTP API that `/api/*` and the other API paths go to. */
  api: HttpApi;
  /** The API's route keys (`GET /swagger-ui/{file}`): the paths CloudFront sends to the API. */
  routes: readonly string[];
  /**
   * A built UI to upload as it is; by default ui/dist, first built (`ui/build.ts --if-stale`) when
   * it is missing or older than the UI sources, so synth and deploy need no separate build step.
   */
  dir?: string;
  /** The ARN of a web ACL of CloudFront scope to put in front of the distribution (`-c waf=true`). */
  webAclArn?: string;
}

/**
 * CloudFront path patterns covering every route key: a path up to its first `{parameter}`, then
 * `/*`; `/api/*` always, and nothing it already covers.
 */
export function apiPathPatterns(routes: readonly string[]): string[] {
  const patterns = new Set<string>(['/api/*']);
  for (const route of routes) {
    const path = route.split(' ').pop() ?? '/';
    const segments = path.split('/');
    const templated = segments.findIndex((segment) => segment.startsWith('{'));
    patterns.add(templated < 0 ? path : `${segments.slice(0, templated).join('/')}/*`);
  }
  const wide = [...patterns].filter((p) => p.endsWith('/*')).map((p) => p.slice(0, -1));
  return [...patterns].filter((p) => !wide.some((prefix) => p !== `${prefix}*` && p.startsWith(prefix)));
}

/** Rewrites a path without a file extension to /index.html (client-side routes of the UI). */
export const SPA_REWRITE = `function handler(event) {
  var request = event.request;
  var last = request.uri.split('/').pop();
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

/** How long the access logs of the distribution and the UI bucket are kept, as the log groups are. */
export const ACCESS_LOG_RETENTION = Duration.days(30);

export class ManagementUi extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** The access logs: `cloudfront/` (viewer requests) and `ui-bucket/` (requests to the bucket). */
  readonly accessLogs: Bucket;

  constructor(scope: Construct, id: string, props: ManagementUiProps) {
    super(scope, id);
    const dir = props.dir ?? builtUi();
    // The distribution's log is the one record of the viewer's address: behind CloudFront the API
    // stage's access log sees CloudFront's. CloudFront delivers its standard logs with an object
    // ACL, so the log bucket lets the writer of an object own it (ACLs otherwise stay disabled).
    this.accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: ACCESS_LOG_RETENTION }],
    });
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'ui-bucket/',
    });
    const rewrite = new CloudFrontFunction(this, 'SpaRewrite', {
      code: FunctionCode.fromInline(SPA_REWRITE),
      comment: 'Client-side routes of the management UI answer index.html',
    });
    // The API's host name: https://<id>.execute-api.<region>.amazonaws.com without the scheme.
    const apiHost = Fn.select(2, Fn.split('/', props.api.apiEndpoint));
    const apiOrigin = new HttpOrigin(apiHost);
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Conductor management UI and API on one origin',
      webAclId: props.webAclArn,
      defaultRootObject: 'index.html',
      enableLogging: true,
      logBucket: this.accessLogs,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        functionAssociations: [{ function: rewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: Object.fromEntries(
        apiPathPatterns(props.routes).map((pattern) => [
          pattern,
          {
            origin: apiOrigin,
            viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
            allowedMethods: AllowedMethods.ALLOW_ALL,
            cachePolicy: CachePolicy.CACHING_DISABLED,
            originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          },
        ]),
      ),
    });
    // Two uploads: hashed assets cached for a year, then index.html, which names them, revalidated.
    const assets = new BucketDeployment(this, 'DeployAssets', {
      sources: [Source.asset(dir, { exclude: ['index.html'] })],
      destinationBucket: this.bucket,
      cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')],
      prune: false,
      memoryLimit: 512,
    });
    const index = new BucketDeployment(this, 'DeployIndex', {
      sources: [Source.asset(dir, { exclude: ['*', '!index.html'] })],
      destinationBucket: this.bucket,
      cacheControl: [CacheControl.noCache()],
      prune: false,
      memoryLimit: 512,
      distribution: this.distribution,
      distributionPaths: ['/index.html'],
    });
    index.node.addDependency(assets);
    new CfnOutput(Stack.of(this), 'UiUrl', {
      value: `https://${this.distribution.distributionDomainName}`,
      description: 'The management UI; its /api/* is the API',
    });
  }
}

/** ui/dist, built first when it is missing or older than its sources. */
function builtUi(): string {
  if (isStale()) {
    execFileSync(process.execPath, ['--import', 'tsx', join(UI_DIR, 'build.ts'), '--if-stale'], {
      stdio: 'inherit',
    });
  }
  if (!existsSync(join(DIST_DIR, 'index.html')))
    throw new Error(`The UI build left no index.html in ${DIST_DIR}`);
  return DIST_DIR;
}
