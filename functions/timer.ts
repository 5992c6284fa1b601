// Lambda entry for the timer consumer: forwards due wake-ups to the decision queue
// (lib/jobs/decision-consumers.ts). It reads no table and runs no engine: no capability.
import { timer } from '../lib/jobs/decision-consumers.ts';
import { consumerHandler, type FunctionParts } from '../lib/runtime/aws.ts';
import { sqsQueues } from '../lib/runtime/aws-adapters/sqs.ts';

export const parts: FunctionParts = { capabilities: [], adapters: [sqsQueues] };
export const handler = consumerHandler(timer, parts);
