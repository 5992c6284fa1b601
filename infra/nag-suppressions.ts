/**
 * The cdk-nag AwsSolutions findings the stack keeps, each acknowledged here with the reason it is
 * acceptable (CDK's `Validations.of(construct).acknowledge`, which cdk-nag reads); every other
 * finding is fixed in the stack itself. infra/app.ts runs the checks on every synth, and
 * test/infra/nag.test.ts runs them on several shapes of the stack: a finding that is neither fixed
 * nor acknowledged here fails both.
 *
 * An acknowledgement names one finding (`AwsSolutions-IAM5[Resource::<Table.Arn>/index/*]` is that
 * table's indexes only) on the narrowest construct it applies to, and covers that construct's
 * children (a function's role and policy); those made on the stack name a finding that can only
 * be about one resource of the stack.
 */
import { type CfnElement, DefaultStackSynthesizer, type Stack, Validations } from 'aws-cdk-lib';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';
import { TABLES } from '../lib/capabilities.ts';
import { PAYLOAD_PREFIX } from '../lib/payloads/keys.ts';
import type { ServiceApi } from './constructs/api.ts';
import type { ApiKeys } from './constructs/api-keys.ts';
import type { ServiceData } from './constructs/data.ts';
import type { ServiceFunction } from './constructs/service-function.ts';
import type { ManagementUi } from './constructs/ui.ts';

/** What the acknowledgements are about: the constructs of ConductorStack that have findings. */
export interface NagSubjects {
  functions: readonly ServiceFunction[];
  data: ServiceData;
  api: ServiceApi;
  /** The application keys; absent when the stack is deployed with `-c auth=none`. */
  apiKeys?: ApiKeys;
  ui: ManagementUi;
  /** A web ACL is in front of the distribution (`-c waf=true`): nothing about WAF to acknowledge. */
  firewall: boolean;
  /**
   * Queues that are dead-letter queues themselves, though no queue names them in a redrive policy
   * (a Lambda on-failure destination, an EventBridge target's dead-letter queue), and what lands there.
   */
  deadLetterDestinations: readonly { queue: Queue; holds: string }[];
}

export function acknowledgeNagFindings(stack: Stack, subjects: NagSubjects): void {
  const { functions, data, api, apiKeys, ui, firewall, deadLetterDestinations } = subjects;
  const ref = (construct: IConstruct) =>
    `<${stack.getLogicalId(construct.node.defaultChild as CfnElement)}.Arn>`;

  for (const fn of functions) {
    Validations.of(fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Every function runs Node.js 22, the Node the tests, the local server and the esbuild target (node22) use, so what is tested is what Lambda runs; Node.js 22 is a supported Lambda runtime, and moving to a newer one is a change of the whole toolchain, not of the stack alone.',
    });
    // The role is the function's sibling (ServiceFunction creates it first), so it is named itself.
    if (fn.role) {
      Validations.of(fn.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'The only statement with Resource "*" is active tracing\'s xray:PutTraceSegments and xray:PutTelemetryRecords, which have no resource type to scope to; test/infra/stack.test.ts fails on any other unscoped resource or wildcard action.',
      });
    }
  }

  // Table grants (Table.grantReadData, grantReadWriteData) cover the table and `<table>/index/*`.
  for (const spec of TABLES) {
    if (spec.indexes.length === 0 && (spec.localIndexes ?? []).length === 0) continue;
    Validations.of(stack).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${ref(data.tableOf(spec))}/index/*]`,
      reason: `The grant covers the indexes of the ${spec.id} table only, which the store queries; "*" is the index name, and no other table is reached.`,
    });
  }
  for (const prefix of data.grantedPrefixes) {
    Validations.of(stack).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${ref(data.bucket)}/${prefix}*]`,
      reason: `The grant covers objects under ${prefix} of the files bucket only, whose keys the service generates; "*" is the rest of the key, and nothing outside the prefix is reached (no other prefix; the only listing is the payload sweep's, of ${PAYLOAD_PREFIX} alone, by an s3:prefix condition).`,
    });
  }

  Validations.of(data.bucket).acknowledge({
    id: 'AwsSolutions-S1',
    reason:
      "Clients reach this bucket's objects through presigned URLs, and a server access log records each request's query string verbatim, X-Amz-Credential and X-Amz-Signature included, while the service writes no credential-like query value to any log (docs/security.md). Where an audit of object access is wanted, CloudTrail's S3 data events record the caller and the key without the signature.",
  });
  Validations.of(ui.accessLogs).acknowledge({
    id: 'AwsSolutions-S1',
    reason:
      'This is the bucket the access logs of the UI bucket and of the distribution go to; logging requests to it would add a log record for every log delivery.',
  });
  Validations.of(ui.distribution).acknowledge(
    {
      id: 'AwsSolutions-CFR1',
      reason:
        "The UI and API serve the operator's users wherever they are, and the service has no country it must refuse; an operator who must restrict countries adds a geo restriction.",
    },
    ...(firewall
      ? []
      : [
          {
            id: 'AwsSolutions-CFR2',
            reason:
              "The web ACL is the operator's choice (-c waf=true: infra/constructs/waf.ts), off by default: AWS WAF bills it per month, rule and request, creates it in us-east-1 only, and it would not cover the API's own execute-api URL (HTTP APIs take no web ACL), which the SDKs and workers may call directly. The service limits hostile input itself before routing (docs/security.md), requires keys by default, and the API stage is throttled.",
          },
        ]),
    {
      id: 'AwsSolutions-CFR4',
      reason:
        'The distribution is served on its default *.cloudfront.net domain and certificate, with which CloudFront fixes the viewer security policy (TLSv1; SSLv3 is not offered) and takes no minimum protocol version: that needs a custom domain and certificate, which the stack does not own. Current browsers and SDKs negotiate TLS 1.2 or 1.3 with it.',
    },
  );
  if (apiKeys) {
    Validations.of(apiKeys.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The secret holds application keys that clients keep: a rotation adds a key, moves the clients to it, then removes the old one (docs/security.md). A rotation function cannot move the clients, so a secret replaced on a schedule would lock every client out.',
    });
  }
  Validations.of(api).acknowledge({
    id: 'AwsSolutions-APIG4',
    reason: apiKeys
      ? 'The service authorizes requests itself, in the form the official Conductor SDKs speak: every route group function checks the X-Authorization token (POST /api/token, for an application key of the Secrets Manager secret) before routing, and answers 401 with the error body the official SDKs act on (they fetch a new token), which an API Gateway authorizer cannot answer. Health, version, token and the API document are open by design (docs/security.md).'
      : 'Deployed with -c auth=none: the operator chose the open API, as Conductor is open by default, and synth warns that anyone who can reach the URL may use it.',
  });
  for (const { queue, holds } of deadLetterDestinations) {
    Validations.of(queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: `This queue is a dead-letter queue itself (${holds}); nothing consumes it but whoever looks at what failed, and a dead-letter queue of its own would only move its messages once more.`,
    });
  }

  // CDK's BucketDeployment handler: aws-cdk-lib's function that CloudFormation invokes during a
  // deploy to copy the built UI into its bucket (one per stack, at the stack's top level).
  for (const handler of stack.node.children) {
    if (!(handler instanceof LambdaFunction) || !handler.node.id.startsWith('Custom::CDKBucketDeployment')) {
      continue;
    }
    const deploying =
      "CDK's BucketDeployment handler, which CloudFormation invokes only during a deploy to copy the built UI into its bucket, never on a request";
    Validations.of(handler).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: `${deploying}: aws-cdk-lib creates its role with Lambda's managed basic execution policy, which lets it write its CloudWatch logs.`,
      },
      {
        id: 'AwsSolutions-L1',
        reason: `${deploying}: aws-cdk-lib chooses its runtime, with the AWS CLI layer it runs.`,
      },
      ...['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'].map((action) => ({
        id: `AwsSolutions-IAM5[Action::${action}]`,
        reason: `${deploying}: ${action} is part of CDK's read grant on the asset bucket and read-write grant on the UI bucket, the two buckets it copies between.`,
      })),
      {
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${assetBucketName(stack)}/*]`,
        reason: `${deploying}: it reads the staged UI archive from the CDK bootstrap asset bucket of this account and region, read-only.`,
      },
      {
        id: `AwsSolutions-IAM5[Resource::${ref(ui.bucket)}/*]`,
        reason: `${deploying}: it writes the UI files into the UI bucket, the only bucket it may write.`,
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: `${deploying}: the unscoped statement is CDK's cloudfront:CreateInvalidation and cloudfront:GetInvalidation, which invalidate /index.html after the upload.`,
      },
    );
  }
}

/**
 * The CDK bootstrap asset bucket's name as cdk-nag writes it (DefaultStackSynthesizer's
 * `cdk-${Qualifier}-assets-${AWS::AccountId}-${AWS::Region}`, pseudo parameters in angle brackets).
 */
function assetBucketName(stack: Stack): string {
  const synthesizer = stack.synthesizer;
  const qualifier =
    (synthesizer instanceof DefaultStackSynthesizer ? synthesizer.bootstrapQualifier : undefined) ??
    DefaultStackSynthesizer.DEFAULT_QUALIFIER;
  return `cdk-${qualifier}-assets-<AWS::AccountId>-<AWS::Region>`;
}
