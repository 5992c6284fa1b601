// Lambda entry for the daily payload sweep (lib/payloads/sweep.ts): lists the payloads under
// `payloads/`, reads every stored text that may name one (runs, task rows, schedules' start
// requests) and tags the unnamed ones for the bucket's lifecycle rule. It runs no engine.
import { payloadSweep } from '../lib/payloads/sweep.ts';
import { type FunctionParts, jobHandler } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { s3Payloads } from '../lib/runtime/aws-adapters/s3-payloads.ts';
import { schedulerCapability } from '../lib/scheduler/capability.ts';
import { workflowsCapability } from '../lib/workflows/capability.ts';

export const parts: FunctionParts = {
  capabilities: [workflowsCapability, schedulerCapability],
  adapters: [dynamodb, s3Payloads],
};
export const handler = jobHandler(payloadSweep, parts);
