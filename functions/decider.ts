// Lambda entry for the decider: consumes the SQS FIFO decision queue (lib/jobs/decision-consumers.ts).
import { decider } from '../lib/jobs/decision-consumers.ts';
import { consumerHandler, type FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb, eventSinks, s3Payloads } from '../lib/runtime/aws-adapters.ts';
import { withEngine } from '../lib/runtime/engine-parts.ts';

export const parts: FunctionParts = { ...withEngine(), adapters: [dynamodb, s3Payloads, eventSinks] };
export const handler = consumerHandler(decider, parts);
