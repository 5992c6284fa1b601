/**
 * The Lambda handler of one stream consumer (lib/jobs), fed by a DynamoDB Streams event source:
 * the records become domain changes here (the adapter), the consumer applies them (to the search
 * index, or to the execution store). A throw fails the batch, which the event source retries in
 * order (and halves) before giving up. A stream consumer's function loads only the port it uses
 * (its entry in functions/ gives its factory): the search index, or the remover of expired runs.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { ServiceConfig } from '../config/service-config.ts';
import type { StreamConsumer, StreamConsumerDeps } from '../jobs/types.ts';
import type { SearchIndexWriter } from '../search/ports.ts';
import { type ExecutionStreamRecord, executionChangesOf } from '../store/dynamodb/execution-changes.ts';
import type { ExpiredRunRemover } from '../store/ports.ts';
import { awsConfig } from './aws.ts';

/** How a stream consumer's function makes the ports it uses, from its configuration. */
export interface StreamPorts {
  index?(config: ServiceConfig): SearchIndexWriter;
  expiredRuns?(config: ServiceConfig): ExpiredRunRemover;
}

export function streamConsumerHandler(
  consumer: StreamConsumer,
  ports: StreamPorts,
): (event: DynamoDBStreamEvent) => Promise<void> {
  let deps: StreamConsumerDeps | undefined;
  return async (event) => {
    deps ??= streamConsumerDeps(consumer, ports);
    await consumer.handle(executionChangesOf(event.Records as ExecutionStreamRecord[]), deps);
  };
}

/** A stream consumer's ports, each made when first asked for. */
function streamConsumerDeps(consumer: StreamConsumer, ports: StreamPorts): StreamConsumerDeps {
  const { config, logger } = awsConfig();
  let index: SearchIndexWriter | undefined;
  let remover: ExpiredRunRemover | undefined;
  const port = <T>(make: ((config: ServiceConfig) => T) | undefined, what: string): T => {
    if (make === undefined) throw new Error(`The function of '${consumer.name}' is not given ${what}`);
    return make(config);
  };
  return {
    logger,
    index: () => {
      index ??= port(ports.index, 'a search index');
      return index;
    },
    expiredRuns: () => {
      remover ??= port(ports.expiredRuns, 'the remover of expired runs');
      return remover;
    },
  };
}
