/**
 * Every `service.*` property the service understands: its type, default and meaning (names as in
 * docs/operations.md). The engine's and the hosts' are declared here; a capability with properties
 * declares them in its folder (lib/<capability>/properties.ts) and is listed here once, because the
 * property names are checked by the compiler everywhere and the configuration sits below every
 * capability. The loader validates against this table.
 */

import { EVENTS_PROPERTIES } from '../events/properties.ts';
import { FILE_STORAGE_GATE, FILE_STORAGE_PROPERTIES } from '../files/properties.ts';
import { MESSAGE_QUEUE_GATE, MESSAGE_QUEUE_PROPERTIES } from '../messages/properties.ts';
import { SCHEDULER_GATE, SCHEDULER_PROPERTIES } from '../scheduler/properties.ts';
import { SCHEMAS_PROPERTIES } from '../schemas/properties.ts';
import { bool, int, type PropertySpec, str } from './property-spec.ts';

export type { PropertySpec, PropertyType } from './property-spec.ts';

const DECLARED = [
  // System tasks
  {
    name: 'service.http-task.allow-private-networks',
    type: bool,
    default: false,
    description: 'Let HTTP tasks reach loopback, link-local and private addresses (refused by default)',
  },
  {
    name: 'service.http-task.concurrency',
    type: int(1, 1000),
    default: 16,
    description: 'HTTP tasks in flight at once in one local process (the in-process pool)',
  },
  // Configuration itself
  {
    name: 'service.config.strict',
    type: bool,
    default: false,
    description:
      'Refuse to start (a configuration error) when an environment variable starting with SERVICE_ names no property; otherwise each such variable is a warning at start naming the closest property',
  },
  // Server and local host
  {
    name: 'service.server.port',
    type: int(0, 65535),
    default: 8080,
    description: 'HTTP port of the local server (PORT also works)',
  },
  {
    name: 'service.server.host',
    type: str,
    default: '127.0.0.1',
    description: 'Interface the local server listens on',
  },
  {
    name: 'service.server.max-body-bytes',
    type: int(1024),
    default: 6 * 1024 * 1024,
    description: 'Largest accepted request body; larger gets 413 (API Gateway and Lambda cap at 6 MB)',
  },
  {
    name: 'service.server.max-json-depth',
    type: int(2, 1000),
    default: 100,
    description: 'Deepest nesting of arrays and objects in a JSON body; deeper gets 400 before parsing',
  },
  {
    name: 'service.ui.dir',
    type: str,
    default: 'ui/dist',
    description:
      'Built management UI the local server serves at / (relative to the working directory; empty turns it off)',
  },
  {
    name: 'service.instance-id',
    type: str,
    description: 'Identifies this node in error bodies (`instance`); defaults to the host name',
  },
  {
    name: 'service.log.level',
    type: { kind: 'enum', values: ['debug', 'info', 'warn', 'error'] },
    default: 'info',
    description: 'Lowest level written',
  },
  {
    name: 'service.log.format',
    type: { kind: 'enum', values: ['text', 'json'] },
    default: 'text',
    description: 'Readable lines locally, JSON on AWS',
  },
  {
    name: 'service.local.data-dir',
    type: str,
    default: './.data',
    description: 'Where the local server keeps its embedded store',
  },
  // Storage
  {
    name: 'service.local.fsync',
    type: bool,
    default: false,
    description:
      'The embedded store waits for fsync on every write batch: survives a machine crash, not only a process crash',
  },
  {
    name: 'service.store',
    type: { kind: 'enum', values: ['embedded', 'dynamodb', 'memory'] },
    default: 'embedded',
    description:
      'Local server: embedded (LevelDB in process, under service.local.data-dir), memory, or dynamodb (service.dynamodb.endpoint, else the earlier on-disk dynalite store). A DynamoDB endpoint alone selects dynamodb',
  },
  {
    name: 'service.dynamodb.endpoint',
    type: str,
    description: 'A DynamoDB endpoint URL; unset means the embedded store locally and AWS in Lambda',
  },
  {
    name: 'service.dynamodb.region',
    type: str,
    default: 'us-east-1',
    description: 'Region of the DynamoDB client',
  },
  {
    name: 'service.dynamodb.table-prefix',
    type: str,
    default: 'conductor-',
    description: 'Prefix of table names when tables are not named one by one',
  },
  {
    name: 'service.dynamodb.tables.{table}',
    type: str,
    description:
      'Name of one table, by table id (definitions, executions, queues, ...: lib/capabilities.ts TABLES); default: prefix + id',
  },
  // Large payloads (lib/payloads)
  {
    name: 'service.external-payload.threshold-bytes',
    type: int(1),
    default: 64 * 1024,
    description:
      'An input or output whose JSON is larger is kept in the payload store, its external...PayloadStoragePath set (DynamoDB items cap at 400 KB)',
  },
  {
    name: 'service.external-payload.record-budget-bytes',
    type: int(1),
    default: 256 * 1024,
    description:
      'Inline payloads a run record (which embeds its tasks) may hold together; the largest beyond go external',
  },
  {
    name: 'service.external-payload.url-expiration-seconds',
    type: int(1, 604800),
    default: 3600,
    description: 'Validity of the presigned S3 URLs of externalstoragelocation (AWS)',
  },
  {
    name: 'service.external-payload.sweep',
    type: bool,
    default: true,
    description:
      'The daily payload sweep reclaims stored payloads no run, task row or schedule names any more (lib/payloads/sweep.ts)',
  },
  {
    name: 'service.external-payload.sweep-grace',
    type: { kind: 'duration' },
    // Two days, in ms.
    default: 2 * 86_400_000,
    description:
      'The payload sweep never reclaims a payload written more recently than this (seconds, or with a unit: 2d; at least 2h): an upload a client has not yet named, a write whose run is being committed',
  },
  {
    name: 'service.aws.payload-bucket',
    type: str,
    description:
      'S3 bucket of large payloads (under payloads/); the CDK stack sets it for functions that read runs',
  },
  // Decision queue on AWS (lib/queue/sqs.ts); the CDK stack sets these for every function that sends
  {
    name: 'service.aws.decision-queue-url',
    type: str,
    description: 'URL of the SQS FIFO queue of decide requests (message group = workflow id)',
  },
  {
    name: 'service.aws.system-task-queue-url',
    type: str,
    description: 'URL of the SQS standard queue of system tasks run off the decider (HTTP)',
  },
  {
    name: 'service.aws.event-queue-url',
    type: str,
    description: 'URL of the SQS standard queue of conductor: events, consumed by the event handlers',
  },
  {
    name: 'service.aws.timer-queue-url',
    type: str,
    description: 'URL of the standard SQS queue of delayed wake-ups (up to 15 minutes ahead)',
  },
  {
    name: 'service.aws.schedule-queue-url',
    type: str,
    description: 'URL of the standard SQS queue of schedule fires (each delayed to its second)',
  },
  // Search backend (lib/search; README "Search")
  {
    name: 'service.search.backend',
    type: { kind: 'enum', values: ['store', 'opensearch'] },
    default: 'store',
    description:
      'store: search reads the execution store (memory or DynamoDB); opensearch: an OpenSearch index fed from DynamoDB Streams (AWS stack, -c searchBackend=opensearch)',
  },
  {
    name: 'service.search.opensearch.endpoint',
    type: str,
    description: 'HTTPS endpoint of the OpenSearch collection or domain; the CDK stack sets it',
  },
  {
    name: 'service.search.opensearch.region',
    type: str,
    default: 'us-east-1',
    description: 'Region requests to OpenSearch are signed for (SigV4)',
  },
  {
    name: 'service.search.opensearch.service',
    type: { kind: 'enum', values: ['aoss', 'es'] },
    default: 'aoss',
    description: 'SigV4 service name: aoss (OpenSearch Serverless collection) or es (managed domain)',
  },
  {
    name: 'service.search.opensearch.index-prefix',
    type: str,
    default: 'conductor',
    description: 'Indexes are <prefix>-workflows and <prefix>-tasks',
  },
  // API authentication (lib/security): off by default, as the spec's API is open
  {
    name: 'service.security.enabled',
    type: bool,
    default: false,
    description:
      'Require a token (POST /api/token with an application key) in X-Authorization on every API route but health, version and the API document',
  },
  {
    name: 'service.security.keys[n].id',
    type: str,
    description: 'Application key id (keyId of the SDKs; unique)',
  },
  {
    name: 'service.security.keys[n].secret',
    type: str,
    description:
      'Application key secret (keySecret of the SDKs; at least 16 characters); it also signs the tokens issued to the key',
  },
  {
    name: 'service.security.token-ttl',
    type: { kind: 'duration' },
    // One hour, in ms (a default is held as the value it stands for; a set value is read as seconds).
    default: 3_600_000,
    description:
      'Lifetime of an issued token (seconds, or with a unit); the SDKs fetch a new one every 36 minutes',
  },
  {
    name: 'service.security.keys-secret',
    type: str,
    description:
      'AWS: Secrets Manager secret holding the keys as {"id","secret"} or a list of them (set by the CDK stack); read instead of service.security.keys',
  },
  {
    name: 'service.workflow.retention',
    type: { kind: 'duration' },
    default: 0,
    description:
      'How long an ended run is kept (seconds, or with a unit: 30d); 0 keeps runs forever. Expired runs are hidden from reads and search at once and deleted by DynamoDB TTL',
  },
  {
    name: 'service.tasks.poll.reread-initial',
    type: { kind: 'duration' },
    default: 100,
    description:
      'AWS: a waiting long poll reads its queue again after this long (pushes made by other functions are not seen by the poll function); the interval then doubles up to service.tasks.poll.reread-max',
  },
  {
    name: 'service.tasks.poll.peek-hints',
    type: { kind: 'duration' },
    default: 100,
    description:
      'How long the queue entries a poll read and left answer the next polls of that queue in the same process, instead of a read of the queue (on DynamoDB, 2 read units each); 0 reads the queue on every poll',
  },
  {
    name: 'service.tasks.poll.reread-max',
    type: { kind: 'duration' },
    default: 1000,
    description:
      'AWS: the longest interval between two reads of a waiting long poll (an idle poll reads at most 1000 / this per second)',
  },
  {
    name: 'service.task.log-retention',
    type: { kind: 'duration' },
    // 30 days, in ms (durations are held in ms; a set value is seconds or has a unit).
    default: 30 * 86_400_000,
    description:
      'How long a task log line is kept (seconds, or with a unit: 30d); 0 keeps lines forever. Expired lines are hidden at once and deleted by DynamoDB TTL',
  },
  {
    name: 'service.task.poll-data-retention',
    type: { kind: 'duration' },
    default: 7 * 86_400_000,
    description:
      "How long a worker's last poll is remembered after it stops polling (seconds, or with a unit: 7d); 0 keeps it forever",
  },
  { name: 'service.integrations.ai.enabled', type: bool, default: false, description: 'Agent routes' },
  ...SCHEDULER_PROPERTIES,
  ...FILE_STORAGE_PROPERTIES,
  ...MESSAGE_QUEUE_PROPERTIES,
  ...EVENTS_PROPERTIES,
  ...SCHEMAS_PROPERTIES,
] as const satisfies readonly PropertySpec[];

export const PROPERTIES: readonly PropertySpec[] = DECLARED;

type DeclaredName = (typeof DECLARED)[number]['name'];

/**
 * The name of a property, checked by the compiler: a plain property, one table's name, or (through
 * ServiceConfig.list) a list property's prefix. A misspelt name does not compile.
 */
export type PropertyName =
  | Exclude<DeclaredName, `${string}[n]${string}` | `${string}{table}${string}`>
  | `service.dynamodb.tables.${string}`
  | `${ListPropertyName}[${number}].${string}`;

/** The prefix of a list property, e.g. `service.file-storage.service.signing.keys`. */
export type ListPropertyName = DeclaredName extends infer N
  ? N extends `${infer Prefix}[n]${string}`
    ? Prefix
    : never
  : never;

/** The property that switches each gated feature on. */
export const GATES = {
  ...SCHEDULER_GATE,
  ...FILE_STORAGE_GATE,
  ...MESSAGE_QUEUE_GATE,
  agents: 'service.integrations.ai.enabled',
} as const;

export type GateName = keyof typeof GATES;

/** Whether something behind an optional gate is on: ungated always, gated when its gate is on. */
export function gatedOn(item: { readonly gate?: GateName }, gateOn: (gate: GateName) => boolean): boolean {
  return item.gate === undefined || gateOn(item.gate);
}
