/**
 * CDK app entry (`cdk.json`): one ConductorStack. Gates come from CDK context, e.g.
 * `cdk deploy -c schedulerEnabled=false -c fileStorageEnabled=true`; an absent gate takes the
 * default of its property in lib/config/properties.ts, as the service itself would.
 */
import { App } from 'aws-cdk-lib';
import { GATES, type GateName, PROPERTIES } from '../lib/config/properties.ts';
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
  properties: propertiesFromContext(app),
});

/**
 * `-c service.x=y`: service properties for every function (e.g. `-c service.log.level=debug`,
 * `-c service.file-storage.type=store-b`); the stack refuses names properties.ts does not define.
 */
function propertiesFromContext(app: App): Record<string, string> {
  const context = app.node.getAllContext() as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(context)
      .filter(([key]) => key.startsWith('service.'))
      .map(([key, value]) => [key, String(value)]),
  );
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
