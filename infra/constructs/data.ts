/**
 * The service's state: one DynamoDB table per entry of TABLES (every capability's tables, with the
 * key design documented beside each adapter) and the S3 bucket for files and large payloads. Both are
 * retained when the stack is deleted: losing definitions or uploaded files to a `cdk destroy` is never intended.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  type Attribute,
  AttributeType,
  BillingMode,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { TABLES } from '../../lib/capabilities.ts';
import type { TableAccess } from '../../lib/deployment.ts';
import { PAYLOAD_PREFIX, UNREFERENCED_TAG } from '../../lib/payloads/keys.ts';
import {
  type IndexProjection,
  keyAttributeTypes,
  projectionOf,
  type TableSpec,
} from '../../lib/store/dynamodb/tables.ts';
import { pascalCase } from './names.ts';

/**
 * How the tables are billed. `on-demand` (the default) bills each request and needs no sizing.
 * `provisioned` bills capacity by the hour, scaled between `minUnits` and `maxUnits` per table and
 * per global index to keep `TARGET_UTILIZATION` of it in use: at that use a write costs about 2.4
 * times less than on-demand at us-east-1 list prices, but a burst faster than auto scaling
 * reacts (minutes) is throttled, which the service retries (decides are delivered again).
 */
export type TableCapacity =
  | { mode: 'on-demand' }
  | { mode: 'provisioned'; minUnits: number; maxUnits: number };

/**
 * Days after its creation a payload tagged unreferenced is expired: 1, the least S3 takes (the
 * sweep only tags payloads written more than its grace period ago, so the rule deletes a tagged
 * payload at its next daily run).
 */
export const UNREFERENCED_PAYLOAD_EXPIRY_DAYS = 1;

/** The share of provisioned capacity auto scaling keeps in use. */
export const TARGET_UTILIZATION = 70;

export interface ServiceDataProps {
  /** Table billing; on-demand when absent. */
  capacity?: TableCapacity;
  /**
   * Tables created with a change stream (NEW_IMAGE: a put carries the item, a removal its keys),
   * for the stream consumers deployed (lib/jobs STREAM_CONSUMERS). None by default.
   */
  streamed?: readonly TableSpec[];
}

export class ServiceData extends Construct {
  /** By table id. */
  readonly tables: ReadonlyMap<string, Table>;
  readonly bucket: Bucket;
  /** The object prefixes of the bucket granted to any function (grantPayloads, grantObjects). */
  private readonly prefixes = new Set<string>();

  constructor(scope: Construct, id: string, props: ServiceDataProps = {}) {
    super(scope, id);
    const streamed = new Set((props.streamed ?? []).map((spec) => spec.id));
    const capacity = props.capacity ?? { mode: 'on-demand' };
    this.tables = new Map(TABLES.map((spec) => [spec.id, this.table(spec, streamed.has(spec.id), capacity)]));
    this.bucket = this.filesBucket();
  }

  /** Grants exactly the given access on one table (and its indexes), nothing on any other. */
  grantTable(grantee: IGrantable, spec: TableSpec, access: TableAccess): void {
    if (access === 'readWrite') this.tableOf(spec).grantReadWriteData(grantee);
    else this.tableOf(spec).grantReadData(grantee);
  }

  /**
   * Grants the large-payload prefix of the files bucket only (lib/payloads): objects are read and
   * put, never deleted or touched outside `payloads/` (the bucket's grantRead would also allow
   * listing the whole bucket, files included). The payload sweep (`sweep`) may list the prefix
   * (s3:ListBucket on the bucket, only for prefixes under `payloads/`), read objects' metadata and
   * tag them for the lifecycle rule that expires unreferenced payloads: it never puts or deletes.
   */
  grantPayloads(grantee: IGrantable, access: TableAccess | 'sweep'): void {
    this.prefixes.add(PAYLOAD_PREFIX);
    const actions = {
      read: ['s3:GetObject'],
      readWrite: ['s3:GetObject', 's3:PutObject'],
      sweep: ['s3:GetObject', 's3:PutObjectTagging'],
    }[access];
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions, resources: [this.bucket.arnForObjects(`${PAYLOAD_PREFIX}*`)] }),
    );
    if (access === 'sweep') {
      grantee.grantPrincipal.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['s3:ListBucket'],
          resources: [this.bucket.bucketArn],
          conditions: { StringLike: { 's3:prefix': [`${PAYLOAD_PREFIX}*`] } },
        }),
      );
    }
  }

  /** Grants the given S3 actions on objects under one prefix of the bucket, nothing else. */
  grantObjects(grantee: IGrantable, prefix: string, actions: readonly string[]): void {
    this.prefixes.add(prefix);
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: [...actions], resources: [this.bucket.arnForObjects(`${prefix}*`)] }),
    );
  }

  /** Every prefix of the bucket some function was granted objects under, e.g. `payloads/`. */
  get grantedPrefixes(): string[] {
    return [...this.prefixes];
  }

  /** The table of a spec; a spec no capability lists is a bug in the capability list. */
  tableOf(spec: TableSpec): Table {
    const table = this.tables.get(spec.id);
    if (!table) throw new Error(`Table '${spec.id}' is not in TABLES (lib/capabilities.ts)`);
    return table;
  }

  private table(spec: TableSpec, streamed: boolean, capacity: TableCapacity): Table {
    // keyAttributeTypes also rejects a key attribute declared with two types across indexes.
    const types = keyAttributeTypes(spec);
    const key = (name: string): Attribute => ({
      name,
      type: types.get(name) === 'N' ? AttributeType.NUMBER : AttributeType.STRING,
    });
    const table = new Table(this, pascalCase(spec.id), {
      partitionKey: key(spec.partitionKey),
      sortKey: key(spec.sortKey),
      ...(capacity.mode === 'provisioned'
        ? {
            billingMode: BillingMode.PROVISIONED,
            readCapacity: capacity.minUnits,
            writeCapacity: capacity.minUnits,
          }
        : { billingMode: BillingMode.PAY_PER_REQUEST }),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: spec.ttlAttribute,
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy: RemovalPolicy.RETAIN,
      stream: streamed ? StreamViewType.NEW_IMAGE : undefined,
    });
    for (const index of spec.indexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: key(index.partitionKey),
        sortKey: key(index.sortKey),
        ...projection(index),
        ...(capacity.mode === 'provisioned'
          ? { readCapacity: capacity.minUnits, writeCapacity: capacity.minUnits }
          : {}),
      });
    }
    if (capacity.mode === 'provisioned') autoScale(table, spec, capacity);
    // Local indexes exist only if created with the table; CloudFormation creates them together.
    for (const index of spec.localIndexes ?? []) {
      table.addLocalSecondaryIndex({
        indexName: index.name,
        sortKey: key(index.sortKey),
        ...projection(index),
      });
    }
    return table;
  }

  private filesBucket(): Bucket {
    return new Bucket(this, 'Files', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: false,
      // Browsers and SDKs upload and download straight to S3 through presigned URLs; multipart
      // clients read each part's ETag from the response to complete the upload.
      cors: [
        {
          allowedMethods: [HttpMethods.PUT, HttpMethods.GET],
          allowedOrigins: ['*'],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag'],
        },
      ],
      lifecycleRules: [
        // Parts of an abandoned multipart upload are billed until aborted and never show in listings.
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // Payloads the payload sweep found unreferenced (lib/payloads/sweep.ts) carry this tag; a
        // write of the key makes a new object without it. An age alone cannot tell an unreferenced
        // payload from one a long-running or forever-kept run still reads (content keys are shared
        // between runs): no rule expires payloads by age.
        {
          id: 'ExpireUnreferencedPayloads',
          prefix: PAYLOAD_PREFIX,
          tagFilters: { [UNREFERENCED_TAG.Key]: UNREFERENCED_TAG.Value },
          expiration: Duration.days(UNREFERENCED_PAYLOAD_EXPIRY_DAYS),
        },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}

function projection(index: { projection?: IndexProjection }): {
  projectionType: ProjectionType;
  nonKeyAttributes?: string[];
} {
  const { type, attributes } = projectionOf(index);
  return { projectionType: ProjectionType[type], nonKeyAttributes: attributes };
}

/** Scales reads and writes of the table and of each global index on their utilization. */
function autoScale(table: Table, spec: TableSpec, capacity: { minUnits: number; maxUnits: number }): void {
  const range = { minCapacity: capacity.minUnits, maxCapacity: capacity.maxUnits };
  const onUtilization = { targetUtilizationPercent: TARGET_UTILIZATION };
  table.autoScaleReadCapacity(range).scaleOnUtilization(onUtilization);
  table.autoScaleWriteCapacity(range).scaleOnUtilization(onUtilization);
  for (const index of spec.indexes) {
    table.autoScaleGlobalSecondaryIndexReadCapacity(index.name, range).scaleOnUtilization(onUtilization);
    table.autoScaleGlobalSecondaryIndexWriteCapacity(index.name, range).scaleOnUtilization(onUtilization);
  }
}
