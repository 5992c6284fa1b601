/**
 * CDK app entry (`cdk.json`): one ConductorStack. Gates come from CDK context, e.g.
 * `cdk deploy -c schedulerEnabled=false -c fileStorageEnabled=true`; an absent gate takes the
 * default of its property in lib/config/properties.ts, as the service itself would. Authentication
 * is on unless `-c auth=none`.
 */
import { App } from 'aws-cdk-lib';
import { GATES, type GateName, PROPERTIES } from '../lib/config/properties.ts';
import { type ApiAuthMode, ConductorStack, type Gates } from './stack.ts';

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
  auth: authFromContext(app),
});

/** `-c auth=none` deploys the open API; absent or `key`, keys are required. */
function authFromContext(app: App): ApiAuthMode {
  const value: unknown = app.node.tryGetContext('auth');
  if (value === undefined || value === 'key') return 'key';
  if (value === 'none') return 'none';
  throw new Error(`Context 'auth' must be key or none, got '${String(value)}'`);
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
