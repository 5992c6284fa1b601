// Lambda entry for the one-minute wake-up sweeper (lib/jobs/sweeper.ts): reads the runs' wake-up
// index (the workflows capability's store) and requests decides; it runs no engine.
import { sweeper } from '../lib/jobs/sweeper.ts';
import { type FunctionParts, jobHandler } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { sqsQueues } from '../lib/runtime/aws-adapters/sqs.ts';
import { workflowsCapability } from '../lib/workflows/capability.ts';

export const parts: FunctionParts = { capabilities: [workflowsCapability], adapters: [dynamodb, sqsQueues] };
export const handler = jobHandler(sweeper, parts);
