/**
 * CDK app entry (`cdk.json`): one ConductorStack. Gates come from CDK context, e.g.
 * `cdk deploy -c schedulerEnabled=false -c fileStorageEnabled=true`; an absent gate takes the
 * default of its property in lib/config/properties.ts, as the service itself would. The search
 * backend likewise: `-c searchBackend=opensearch` (default `store`), and operations options:
 * `-c alarmEmail=… -c apiRateLimit=… -c apiBurstLimit=… -c reserveConcurrency=false`, and table
 * billing: `-c tableCapacity=provisioned -c tableMaxUnits=…`.
 * Authentication is on unless `-c auth=none`. Browser origins allowed to call the API's own URL:
 * `-c corsOrigins=https://app.example.com,…` (none by default); a web ACL in front of CloudFront:
 * `-c waf=true` (infra/constructs/waf.ts).
 *
 * Every synth runs cdk-nag's AwsSolutions checks: a finding the stack neither fixes nor acknowledges
 * with its reason (infra/nag-suppressions.ts) stops the synth with the validation report.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { capabilities } from '../lib/capabilities.ts';
import { GATES, type GateName, PROPERTIES } from '../lib/config/properties.ts';
import { DEFAULT_API_LIMITS } from './constructs/api-stage.ts';
import type { TableCapacity } from './constructs/data.ts';
import { parseEventSinkTarget } from './constructs/event-sources.ts';
import type { WafOptions } from './constructs/waf.ts';
import { type ApiAuthMode, ConductorStack, type Gates, type SearchBackend } from './stack.ts';

const app = new App();
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

const stackName: unknown = app.node.tryGetContext('stackName');

new ConductorStack(app, typeof stackName === 'string' ? stackName : 'ConductorServerless', {
  description: 'Serverless Conductor-compatible workflow orchestration',
  gates: {
    scheduler: gateFromContext(app, 'scheduler'),
    fileStorage: gateFromContext(app, 'fileStorage'),
    messageQueue: gateFromContext(app, 'messageQueue'),
    agents: gateFromContext(app, 'agents'),
  } satisfies Gates,
  searchBackend: searchBackendFromContext(app),
  auth: authFromContext(app),
  // e.g. -c corsOrigins=https://app.example.com (none by default: the UI is on the API's origin)
  corsOrigins: listFromContext(app, 'corsOrigins'),
  waf: wafFromContext(app),
  properties: propertiesFromContext(app),
  operations: {
    alarmEmail: stringFromContext(app, 'alarmEmail'),
    apiLimits: {
      rateLimit: numberFromContext(app, 'apiRateLimit') ?? DEFAULT_API_LIMITS.rateLimit,
      burstLimit: numberFromContext(app, 'apiBurstLimit') ?? DEFAULT_API_LIMITS.burstLimit,
    },
    reserveConcurrency: booleanFromContext(app, 'reserveConcurrency'),
    tableCapacity: tableCapacityFromContext(app),
  },
  // Each capability's outside sources from its context key, e.g.
  // -c eventSources=sqs:orders,eventbridge:default:OrderPlaced
  outsideSources: Object.fromEntries(
    capabilities().flatMap(({ name, outsideSources: spec }) =>
      spec
        ? [[name, listFromContext(app, spec.context).map((value) => parsed(value, spec.parse(value)))]]
        : [],
    ),
  ),
  // e.g. -c eventSinks=sqs:shipments,eventbridge:audit
  eventSinks: listFromContext(app, 'eventSinks').map((value) => parsed(value, parseEventSinkTarget(value))),
});

/** A comma-separated string (`-c`) or a list (cdk.json). */
function listFromContext(app: App, key: string): string[] {
  const value: unknown = app.node.tryGetContext(key);
  if (value === undefined || value === '') return [];
  const list = Array.isArray(value) ? value : String(value).split(',');
  return list.map((item) => String(item).trim()).filter((item) => item !== '');
}

function parsed<T>(value: string, result: T | string): T {
  if (typeof result === 'string') throw new Error(`Context: ${result} (${value})`);
  return result;
}

/** `-c searchBackend=store|opensearch` (README "Search"); store when absent. */
function searchBackendFromContext(app: App): SearchBackend {
  const value: unknown = app.node.tryGetContext('searchBackend');
  if (value === undefined || value === 'store') return 'store';
  if (value === 'opensearch') return 'opensearch';
  throw new Error(`Context 'searchBackend' must be store or opensearch, got '${String(value)}'`);
}

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

/**
 * `-c tableCapacity=provisioned` bills the tables by provisioned capacity, auto scaled between
 * `-c tableMinUnits` (default 5) and `-c tableMaxUnits` (default 4,000) read and write units per
 * table and per global index; absent or `on-demand`, by request.
 */
function tableCapacityFromContext(app: App): TableCapacity {
  const value: unknown = app.node.tryGetContext('tableCapacity');
  if (value === undefined || value === 'on-demand') {
    for (const key of ['tableMinUnits', 'tableMaxUnits']) {
      if (app.node.tryGetContext(key) !== undefined)
        throw new Error(`Context '${key}' applies only with tableCapacity=provisioned`);
    }
    return { mode: 'on-demand' };
  }
  if (value !== 'provisioned') {
    throw new Error(`Context 'tableCapacity' must be on-demand or provisioned, got '${String(value)}'`);
  }
  const minUnits = numberFromContext(app, 'tableMinUnits') ?? 5;
  const maxUnits = numberFromContext(app, 'tableMaxUnits') ?? 4000;
  if (maxUnits < minUnits) {
    throw new Error(`Context 'tableMaxUnits' (${maxUnits}) must be at least tableMinUnits (${minUnits})`);
  }
  return { mode: 'provisioned', minUnits, maxUnits };
}

/**
 * `-c waf=true` puts a web ACL in front of the CloudFront distribution (`-c wafRateLimit=…`
 * requests per IP in five minutes); `-c wafWebAclArn=…` uses one made in us-east-1 instead.
 */
function wafFromContext(app: App): WafOptions | undefined {
  const on = booleanFromContext(app, 'waf');
  const webAclArn = stringFromContext(app, 'wafWebAclArn');
  const rateLimit = numberFromContext(app, 'wafRateLimit');
  if (on !== true) {
    if (webAclArn !== undefined || rateLimit !== undefined) {
      throw new Error("Context 'wafWebAclArn' and 'wafRateLimit' apply only with waf=true");
    }
    return undefined;
  }
  if (webAclArn !== undefined && rateLimit !== undefined) {
    throw new Error(
      "Context 'wafRateLimit' applies to the web ACL the stack creates, not to one given by wafWebAclArn",
    );
  }
  return { webAclArn, rateLimit };
}

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
