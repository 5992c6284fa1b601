// Lambda entry for the system-task consumer: carries out HTTP tasks off the decider
// (lib/jobs/system-tasks.ts).
import { systemTasks } from '../lib/jobs/system-tasks.ts';
import { consumerHandler, type FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb, s3Payloads } from '../lib/runtime/aws-adapters.ts';
import { withEngine } from '../lib/runtime/engine-parts.ts';

export const parts: FunctionParts = { ...withEngine(), adapters: [dynamodb, s3Payloads] };
export const handler = consumerHandler(systemTasks, parts);
