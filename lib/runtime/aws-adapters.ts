/**
 * The AWS adapters a function's services may use besides SQS (FunctionParts.adapters in
 * lib/runtime/aws.ts). A function's entry names those its grants call for (its tables, the payload
 * bucket, EVENT tasks' sinks, the search index; test/runtime/aws-functions.test.ts checks them);
 * the others, and their SDK clients, stay out of its bundle.
 */
import type { EventPublisher } from '../engine/event-sinks/sinks.ts';
import { SqsEventPublisher } from '../engine/event-sinks/sqs.ts';
import type { PayloadStore } from '../payloads/ports.ts';
import type { AwsAdapter } from './aws.ts';
import { openSearchIndexFrom } from './aws-search.ts';
import { awsStoresOf } from './aws-stores.ts';

/** The stores of the function's capabilities, over DynamoDB. */
export const dynamodb: AwsAdapter = ({ config, capabilities }) => ({
  stores: awsStoresOf(capabilities, config),
});

/**
 * The payload store on S3, where the stack names the payload bucket (and grants its `payloads/`
 * prefix: FunctionGrants.payloads). Payloads go there only when they are large, so the S3 client
 * is loaded on the first use: its module is in the bundle, but not evaluated at a cold start.
 */
export const s3Payloads: AwsAdapter = ({ config }) => {
  const bucket = config.string('service.aws.payload-bucket');
  if (bucket === undefined) return {};
  let store: Promise<PayloadStore> | undefined;
  const s3 = () => {
    store ??= import('../payloads/s3.ts').then((module) => module.s3PayloadStore(bucket));
    return store;
  };
  const payloads: PayloadStore = {
    put: async (key, json) => (await s3()).put(key, json),
    get: async (key) => (await s3()).get(key),
    presign: async (key, operation, expiresIn) => {
      const s3Store = await s3();
      if (!s3Store.presign) throw new Error('This payload store presigns no URL');
      return s3Store.presign(key, operation, expiresIn);
    },
  };
  return { payloads };
};

/**
 * The outside sinks EVENT tasks publish to (`sqs:`, `eventbridge:`), for the functions that decide
 * runs (they send to the events queue); the role limits which queues and buses (the eventSinks
 * context). EventBridge is loaded on the first publish to it.
 */
export const eventSinks: AwsAdapter = ({ sqs }) => ({
  eventPublishers: {
    sqs: new SqsEventPublisher(sqs),
    eventbridge: loadedOnFirstPublish(async () =>
      (await import('../engine/event-sinks/eventbridge.ts')).defaultEventBridgePublisher(),
    ),
  },
});

/** OpenSearch, where it is the search backend (service.search.backend=opensearch). */
export const openSearch: AwsAdapter = ({ config }) =>
  config.oneOf('service.search.backend', SEARCH_BACKENDS) === 'opensearch'
    ? { searchIndex: openSearchIndexFrom(config) }
    : {};

const SEARCH_BACKENDS = ['store', 'opensearch'] as const;

/** A publisher made on its first publish (its SDK client is loaded then). */
function loadedOnFirstPublish(load: () => Promise<EventPublisher>): EventPublisher {
  let publisher: Promise<EventPublisher> | undefined;
  return {
    publish: async (sink, message) => {
      publisher ??= load();
      await (await publisher).publish(sink, message);
    },
  };
}
