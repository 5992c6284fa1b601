/**
 * The AWS endpoint the functions reach (their AWS_ENDPOINT_URL): every SDK call is told apart by its
 * SigV4 credential (one access key per function), checked against that function's role (Iam), then
 * answered by the stand-in for its service:
 * - DynamoDB: dynalite, in process, with the template's tables (keys, indexes; TTL noted);
 * - S3: s3rver, in process, with the template's buckets; presigned URLs come back here too and are
 *   authorized as the function that signed them;
 * - SQS: Sqs (sqs.ts); Secrets Manager: the template's generated secret; EventBridge: PutEvents
 *   recorded.
 * A refused call fails as AWS fails it (AccessDeniedException, or S3's 403 AccessDenied), naming the
 * function, the action and the resource, and is recorded in `iam.denials`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import S3rver from 's3rver';
import { type EmbeddedDynamo, startEmbeddedDynamo } from '../../../lib/store/dynamodb/embedded.ts';
import { readBody } from './http.ts';
import type { Iam } from './iam.ts';
import { type Sqs, SqsError } from './sqs.ts';
import { ACCOUNT, REGION, type ResolvedTemplate } from './template.ts';

export interface Caller {
  role: string;
  functionName: string;
}

export interface PublishedEvent {
  from: string;
  entry: Record<string, unknown>;
}

interface Secret {
  arn: string;
  name: string;
  value: string;
}

export class AwsFront {
  private server!: Server;
  private dynamo!: EmbeddedDynamo;
  private s3!: { close(): Promise<void> };
  private s3Port = 0;
  private s3Dir = '';
  readonly callers = new Map<string, Caller>();
  readonly secrets: Secret[] = [];
  readonly published: PublishedEvent[] = [];
  /** Tables with a TTL attribute: dynalite keeps expired items, as DynamoDB may for days. */
  readonly ttlAttributes = new Map<string, string>();
  endpoint = '';
  sqs!: Sqs;

  private iam!: Iam;

  /** The S3 stand-in itself (s3rver: access key S3RVER), for a test to look behind the IAM check. */
  get s3Endpoint(): string {
    return `http://127.0.0.1:${this.s3Port}`;
  }

  /** Listens first: queue URLs in the template point at this endpoint. */
  static async listen(): Promise<AwsFront> {
    const front = new AwsFront();
    front.server = createServer((req, res) => {
      front.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ __type: 'InternalFailure', message: String(error) }));
      });
    });
    front.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => front.server.listen(0, '127.0.0.1', resolve));
    front.endpoint = `http://127.0.0.1:${(front.server.address() as AddressInfo).port}`;
    return front;
  }

  /** Creates the template's tables, buckets, queues and secrets. */
  async provision(template: ResolvedTemplate, sqs: Sqs, iam: Iam): Promise<void> {
    this.sqs = sqs;
    this.iam = iam;
    this.dynamo = await startEmbeddedDynamo();
    const admin = this.dynamo.client();
    for (const id of template.ofType('AWS::DynamoDB::Table')) {
      const props = template.properties(id);
      const name = template.physical.get(id)?.ref as string;
      const input: CreateTableCommandInput = {
        TableName: name,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: props.AttributeDefinitions as CreateTableCommandInput['AttributeDefinitions'],
        KeySchema: props.KeySchema as CreateTableCommandInput['KeySchema'],
        GlobalSecondaryIndexes:
          props.GlobalSecondaryIndexes as CreateTableCommandInput['GlobalSecondaryIndexes'],
        LocalSecondaryIndexes:
          props.LocalSecondaryIndexes as CreateTableCommandInput['LocalSecondaryIndexes'],
      };
      await admin.send(new CreateTableCommand(input));
      const ttl = props.TimeToLiveSpecification as { AttributeName?: string; Enabled?: boolean } | undefined;
      if (ttl?.Enabled && ttl.AttributeName) this.ttlAttributes.set(name, ttl.AttributeName);
    }
    admin.destroy();
    this.s3Dir = mkdtempSync(join(tmpdir(), 'deployed-s3-'));
    const buckets = template
      .ofType('AWS::S3::Bucket')
      .map((id) => ({ name: template.physical.get(id)?.ref as string }));
    const s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: this.s3Dir,
      configureBuckets: buckets,
    });
    const { port } = (await s3.run()) as AddressInfo;
    this.s3Port = port;
    this.s3 = s3;
    for (const id of template.ofType('AWS::SecretsManager::Secret')) {
      const props = template.properties(id);
      const arn = template.physical.get(id)?.ref as string;
      this.secrets.push({
        arn,
        name:
          arn
            .split(':')
            .pop()
            ?.replace(/-AbCdEf$/, '') ?? id,
        value: secretValueOf(props),
      });
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await this.dynamo?.close();
    await this.s3?.close();
    if (this.s3Dir) rmSync(this.s3Dir, { recursive: true, force: true });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.endpoint);
    const body = await readBody(req);
    const credential =
      /Credential=([^/]+)\//.exec(req.headers.authorization ?? '')?.[1] ??
      url.searchParams.get('X-Amz-Credential')?.split('/')[0];
    const caller = credential ? this.callers.get(credential) : undefined;
    const target = String(req.headers['x-amz-target'] ?? '');
    const [prefix, operation = ''] = target.split('.');
    const service = target ? (prefix ?? '') : 's3';
    if (!caller) {
      return denyUnknown(res, service, credential);
    }
    switch (prefix) {
      case 'DynamoDB_20120810':
        return this.dynamoCall(caller, operation, req, body, res);
      case 'AmazonSQS':
        return this.sqsCall(caller, operation, body, res);
      case 'secretsmanager':
        return this.secretsCall(caller, operation, body, res);
      case 'AWSEvents':
        return this.eventsCall(caller, operation, body, res);
      default:
        if (target)
          return json(res, 400, {
            __type: 'UnknownOperationException',
            message: `No stand-in for ${target}`,
          });
        return this.s3Call(caller, credential as string, req, url, body, res);
    }
  }

  private async authorize(
    caller: Caller,
    action: string,
    resources: string[],
    context: Record<string, string> = {},
  ): Promise<string | undefined> {
    for (const resource of resources) {
      if (!(await this.iam.allows(caller.role, caller.functionName, action, resource, context))) {
        return `User: arn:aws:sts::${ACCOUNT}:assumed-role/${caller.role}/${caller.functionName} is not authorized to perform: ${action} on resource: ${resource} because no identity-based policy allows the ${action} action`;
      }
    }
    return undefined;
  }

  private async dynamoCall(
    caller: Caller,
    operation: string,
    req: IncomingMessage,
    body: Buffer,
    res: ServerResponse,
  ) {
    const input = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
    const arn = (table: string) => `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${table}`;
    const tables =
      operation === 'BatchGetItem' || operation === 'BatchWriteItem'
        ? Object.keys((input.RequestItems as Record<string, unknown>) ?? {})
        : [String(input.TableName)];
    const resources = tables.map((table) =>
      input.IndexName === undefined ? arn(table) : `${arn(table)}/index/${String(input.IndexName)}`,
    );
    const denied = await this.authorize(caller, `dynamodb:${operation}`, resources);
    if (denied)
      return json(res, 400, { __type: 'com.amazon.coral.service#AccessDeniedException', message: denied });
    return forward(req, body, this.dynamo.endpoint, res);
  }

  private async sqsCall(caller: Caller, operation: string, body: Buffer, res: ServerResponse) {
    const input = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
    const { action, resources } = this.sqs.authorization(operation, input);
    const denied = await this.authorize(caller, action, resources);
    if (denied) return sqsError(res, new SqsError('AccessDenied', denied, 403));
    try {
      return json(res, 200, this.sqs.handle(operation, input), 'application/x-amz-json-1.0');
    } catch (error) {
      if (error instanceof SqsError) return sqsError(res, error);
      throw error;
    }
  }

  private async secretsCall(caller: Caller, operation: string, body: Buffer, res: ServerResponse) {
    const input = JSON.parse(body.toString('utf8') || '{}') as { SecretId?: string };
    const secret = this.secrets.find((s) => s.arn === input.SecretId || s.name === input.SecretId);
    const resource = secret?.arn ?? `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${input.SecretId}`;
    const denied = await this.authorize(caller, `secretsmanager:${operation}`, [resource]);
    if (denied) return json(res, 400, { __type: 'AccessDeniedException', message: denied });
    if (operation !== 'GetSecretValue')
      return json(res, 400, { __type: 'InvalidRequestException', message: operation });
    if (!secret) {
      return json(res, 400, {
        __type: 'ResourceNotFoundException',
        message: "Secrets Manager can't find the specified secret.",
      });
    }
    return json(res, 200, {
      ARN: secret.arn,
      Name: secret.name,
      SecretString: secret.value,
      VersionId: 'harness-version-1',
      VersionStages: ['AWSCURRENT'],
      CreatedDate: Math.floor(Date.now() / 1000),
    });
  }

  private async eventsCall(caller: Caller, operation: string, body: Buffer, res: ServerResponse) {
    const input = JSON.parse(body.toString('utf8') || '{}') as { Entries?: Record<string, unknown>[] };
    if (operation !== 'PutEvents')
      return json(res, 400, { __type: 'UnknownOperationException', message: operation });
    const entries = input.Entries ?? [];
    const buses = entries.map((entry) => {
      const bus = String(entry.EventBusName ?? 'default');
      return bus.startsWith('arn:') ? bus : `arn:aws:events:${REGION}:${ACCOUNT}:event-bus/${bus}`;
    });
    const denied = await this.authorize(caller, 'events:PutEvents', [...new Set(buses)]);
    if (denied) return json(res, 400, { __type: 'AccessDeniedException', message: denied });
    for (const entry of entries) this.published.push({ from: caller.functionName, entry });
    return json(res, 200, {
      FailedEntryCount: 0,
      Entries: entries.map(() => ({ EventId: randomBytes(16).toString('hex') })),
    });
  }

  private async s3Call(
    caller: Caller,
    credential: string,
    req: IncomingMessage,
    url: URL,
    body: Buffer,
    res: ServerResponse,
  ) {
    const [, bucket = '', ...keyParts] = url.pathname.split('/');
    const key = decodeURIComponent(keyParts.join('/'));
    const { action, resource, context } = s3Authorization(req.method ?? 'GET', url, bucket, key);
    const denied = await this.authorize(caller, action, [resource], context);
    if (denied) {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>${escapeXml(denied)}</Message></Error>`,
      );
      return;
    }
    // s3rver accepts one access key and does not check signatures; the caller was checked above.
    const search = url.search.replace(encodeURIComponent(credential), 'S3RVER').replace(credential, 'S3RVER');
    const headers = { ...req.headers };
    if (headers.authorization) headers.authorization = headers.authorization.replace(credential, 'S3RVER');
    return forward(req, body, `http://127.0.0.1:${this.s3Port}`, res, `${url.pathname}${search}`, headers);
  }
}

function s3Authorization(
  method: string,
  url: URL,
  bucket: string,
  key: string,
): { action: string; resource: string; context?: Record<string, string> } {
  const q = url.searchParams;
  const object = `arn:aws:s3:::${bucket}/${key}`;
  if (!key) {
    if (q.has('uploads'))
      return { action: 's3:ListBucketMultipartUploads', resource: `arn:aws:s3:::${bucket}` };
    if (method === 'POST' && q.has('delete'))
      return { action: 's3:DeleteObject', resource: `arn:aws:s3:::${bucket}/*` };
    // A listing's prefix is a condition key policies may scope it by (the payload sweep's is).
    const prefix = q.get('prefix');
    return {
      action: 's3:ListBucket',
      resource: `arn:aws:s3:::${bucket}`,
      ...(prefix !== null ? { context: { 's3:prefix': prefix } } : {}),
    };
  }
  if (q.has('tagging')) {
    const verb = method === 'PUT' ? 'Put' : method === 'DELETE' ? 'Delete' : 'Get';
    return { action: `s3:${verb}ObjectTagging`, resource: object };
  }
  if (method === 'GET' && q.has('uploadId'))
    return { action: 's3:ListMultipartUploadParts', resource: object };
  if (method === 'DELETE' && q.has('uploadId'))
    return { action: 's3:AbortMultipartUpload', resource: object };
  if (method === 'GET' || method === 'HEAD') return { action: 's3:GetObject', resource: object };
  if (method === 'DELETE') return { action: 's3:DeleteObject', resource: object };
  return { action: 's3:PutObject', resource: object };
}

/** The value Secrets Manager generates for a GenerateSecretString, with the same shape. */
function secretValueOf(props: Record<string, unknown>): string {
  if (typeof props.SecretString === 'string') return props.SecretString;
  const spec = (props.GenerateSecretString ?? {}) as {
    SecretStringTemplate?: string;
    GenerateStringKey?: string;
    PasswordLength?: number;
    ExcludePunctuation?: boolean;
  };
  const alphabet = `ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789${spec.ExcludePunctuation ? '' : '!#$%&()*+,-.:;<=>?@[]^_{|}~'}`;
  const bytes = randomBytes(spec.PasswordLength ?? 32);
  const generated = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  if (!spec.SecretStringTemplate || !spec.GenerateStringKey) return generated;
  return JSON.stringify({ ...JSON.parse(spec.SecretStringTemplate), [spec.GenerateStringKey]: generated });
}

function forward(
  req: IncomingMessage,
  body: Buffer,
  target: string,
  res: ServerResponse,
  path = req.url ?? '/',
  headers = req.headers,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const upstream = request(
      `${target}${path}`,
      {
        method: req.method,
        headers: { ...headers, host: new URL(target).host, 'content-length': String(body.length) },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => resolve());
        answer.on('error', reject);
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}

function json(
  res: ServerResponse,
  status: number,
  value: unknown,
  type = 'application/x-amz-json-1.1',
): void {
  const headers: Record<string, string> = { 'content-type': type };
  const error = (value as { __type?: string }).__type;
  if (status >= 400 && error) headers['x-amzn-errortype'] = error.split('#').pop() as string;
  res.writeHead(status, headers);
  res.end(JSON.stringify(value));
}

function sqsError(res: ServerResponse, error: SqsError): void {
  res.writeHead(error.status, {
    'content-type': 'application/x-amz-json-1.0',
    'x-amzn-query-error': `${error.code};Sender`,
  });
  res.end(JSON.stringify({ __type: `com.amazonaws.sqs#${error.code}`, message: error.message }));
}

function denyUnknown(res: ServerResponse, service: string, credential: string | undefined): void {
  const message = `The security token included in the request is invalid (access key ${credential ?? 'none'})`;
  if (service === 's3') {
    res.writeHead(403, { 'content-type': 'application/xml' });
    res.end(`<Error><Code>InvalidAccessKeyId</Code><Message>${escapeXml(message)}</Message></Error>`);
    return;
  }
  json(res, 400, { __type: 'UnrecognizedClientException', message });
}

const escapeXml = (text: string) =>
  text.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c] as string);
