// Lambda entry for the schedule fire consumer: starts scheduled workflows (lib/scheduler/schedule-fire.ts).
import { consumerHandler, type FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb, s3Payloads } from '../lib/runtime/aws-adapters.ts';
import { withEngine } from '../lib/runtime/engine-parts.ts';
import { schedulerCapability } from '../lib/scheduler/capability.ts';
import { scheduleFire } from '../lib/scheduler/schedule-fire.ts';

export const parts: FunctionParts = { ...withEngine(schedulerCapability), adapters: [dynamodb, s3Payloads] };
export const handler = consumerHandler(scheduleFire, parts);
