/**
 * CDK app entry (`cdk.json`): one ConductorStack. Gates come from CDK context, e.g.
 * `cdk deploy -c schedulerEnabled=false -c fileStorageEnabled=true`; an absent gate takes the
 * default of its property in lib/config/properties.ts, as the service itself would. Operations
 * options likewise: `-c alarmEmail=… -c apiRateLimit=… -c apiBurstLimit=… -c reserveConcurrency=false`.
 */
import { App } from 'aws-cdk-lib';
import { GATES, type GateName, PROPERTIES } from '../lib/config/properties.ts';
import { DEFAULT_API_LIMITS } from './constructs/api-stage.ts';
import { ConductorStack, type Gates } from './stack.ts';

const app = new App();

const stackName: unknown = app.node.tryGetContext('stackName');

new ConductorStack(app, typeof stackName === 'string' ? stackName : 'ConductorServerless', {
  description: 'Serverless Conductor-compatible workflow orchestration',
  gates: {
    scheduler: gateFromContext(app, 'scheduler'),
    fileStorage: gateFromContext(app, 'fileStorage'),
    messageQueue: gateFromContext(app, 'messageQueue'),
    agents: gateFromContext(app, 'agents'),
  } satisfies Gates,
  operations: {
    alarmEmail: stringFromContext(app, 'alarmEmail'),
    apiLimits: {
      rateLimit: numberFromContext(app, 'apiRateLimit') ?? DEFAULT_API_LIMITS.rateLimit,
      burstLimit: numberFromContext(app, 'apiBurstLimit') ?? DEFAULT_API_LIMITS.burstLimit,
    },
    reserveConcurrency: booleanFromContext(app, 'reserveConcurrency'),
  },
});

function stringFromContext(app: App, key: string): string | undefined {
  const value: unknown = app.node.tryGetContext(key);
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new Error(`Context '${key}' must be a string`);
  return value;
}

function numberFromContext(app: App, key: string): number | undefined {
  const value: unknown = app.node.tryGetContext(key);
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) {
    throw new Error(`Context '${key}' must be a positive whole number, got '${String(value)}'`);
  }
  return number;
}

function booleanFromContext(app: App, key: string): boolean | undefined {
  const value: unknown = app.node.tryGetContext(key);
  if (value === undefined) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`Context '${key}' must be true or false, got '${String(value)}'`);
}

/** `-c <gate>Enabled=true|false`; `-c` gives strings, cdk.json context may give booleans. */
function gateFromContext(app: App, gate: GateName): boolean {
  const key = `${gate}Enabled`;
  const value: unknown = app.node.tryGetContext(key);
  if (value === undefined) return PROPERTIES.find((spec) => spec.name === GATES[gate])?.default === true;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`Context '${key}' must be true or false, got '${String(value)}'`);
}
