// Every Lambda function's entry (functions/): what it is made of matches what its descriptor asks
// (its capability, the capability of its work, the engine, the AWS adapters its grants call for),
// and its handler, run in process with the environment the stack gives it (AWS endpoints pointed
// at dynalite and a stand-in for Secrets Manager and SQS), answers a cheap first invocation.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SynthesizedFunction, synthesizeFunctions } from '../../bench/lib/bundles.ts';
import {
  type ColdStart,
  eventOf,
  type FunctionRole,
  localEnvironment,
  roleOf,
  tableNamesIn,
} from '../../bench/lib/cold-start.ts';
import { type FakeAws, startFakeAws } from '../../bench/lib/fake-aws.ts';
import { type AnyCapability, CAPABILITIES, CONSUMERS, JOBS } from '../../lib/capabilities.ts';
import { ALL_TABLES } from '../../lib/catalog.ts';
import type { FunctionGrants } from '../../lib/deployment.ts';
import { ENGINE_CAPABILITIES } from '../../lib/engine-capabilities.ts';
import type { FunctionParts } from '../../lib/runtime/aws.ts';
import { dynamodb } from '../../lib/runtime/aws-adapters/dynamodb.ts';
import { eventSinks } from '../../lib/runtime/aws-adapters/event-sinks.ts';
import { openSearch } from '../../lib/runtime/aws-adapters/opensearch.ts';
import { s3Payloads } from '../../lib/runtime/aws-adapters/s3-payloads.ts';
import { sqsQueues } from '../../lib/runtime/aws-adapters/sqs.ts';
import { tableNamesFrom } from '../../lib/runtime/store-bundle.ts';
import { issueToken } from '../../lib/security/tokens.ts';
import { type EmbeddedDynamo, startEmbeddedDynamo } from '../../lib/store/dynamodb/embedded.ts';
import { dynamoSession } from '../../lib/store/dynamodb/index.ts';

const outdir = mkdtempSync(join(tmpdir(), 'conductor-functions-'));
const functions = synthesizeFunctions(outdir, { bundling: false }).filter((fn) =>
  fn.runtime.startsWith('nodejs'),
);
const roles = functions.map((fn) => [fn.name, fn, roleOf(fn) as FunctionRole] as const);

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

interface Entry {
  handler: (event: unknown, context?: unknown) => Promise<unknown>;
  parts?: FunctionParts;
}

const entryOf = (role: FunctionRole): Promise<Entry> => import(`../../functions/${role.of}.ts`);

/** The capability that declares a job or consumer. */
const ownerOf = (name: string): AnyCapability | undefined =>
  CAPABILITIES.find((c: AnyCapability) =>
    [...(c.jobs ?? []), ...(c.consumers ?? [])].some((work) => work.name === name),
  );

function grantsOf(role: FunctionRole): FunctionGrants {
  const named = <T extends { name: string; grants: FunctionGrants }>(list: readonly T[]) =>
    list.find((item) => item.name === role.of)?.grants;
  const grants =
    role.kind === 'route-group'
      ? named(CAPABILITIES)
      : role.kind === 'outside-sources'
        ? CAPABILITIES.find((c: AnyCapability) => c.outsideSources?.function.name === role.of)?.outsideSources
            ?.function.grants
        : named([...CONSUMERS, ...JOBS]);
  if (grants === undefined) throw new Error(`No grants for ${role.kind} ${role.of}`);
  return grants;
}

describe('every function entry', () => {
  it('is known for every function the stack deploys', () => {
    expect(roles.filter(([, , role]) => role === undefined).map(([name]) => name)).toEqual([]);
    expect(roles.length).toBe(21);
  });

  const withParts = roles.filter(([, , role]) => role.kind !== 'stream-consumer');

  it.each(withParts)(
    '%s is made of its capability and of what its work is given',
    async (_name, _fn, role) => {
      const { parts } = await entryOf(role);
      if (parts === undefined) throw new Error(`functions/${role.of}.ts exports no parts`);
      const names = parts.capabilities.map((c) => c.name);
      if (role.kind === 'route-group') expect(names).toContain(role.of);
      if (role.kind === 'outside-sources') {
        const owner = CAPABILITIES.find((c: AnyCapability) => c.outsideSources?.function.name === role.of);
        expect(names).toContain(owner?.name);
      }
      if (role.kind === 'consumer' || role.kind === 'job') {
        const work = [...CONSUMERS, ...JOBS].find((w) => w.name === role.of);
        if (work?.readsProvided) expect(names).toContain(ownerOf(role.of)?.name);
      }
    },
  );

  it.each(withParts)(
    '%s runs the engine with every capability it is made of, or not at all',
    async (_name, _fn, role) => {
      const { parts } = (await entryOf(role)) as Required<Entry>;
      const grants = grantsOf(role);
      if (grants.engine !== undefined) expect(parts.engine).toBeDefined();
      if (parts.engine) {
        for (const capability of ENGINE_CAPABILITIES) expect(parts.capabilities).toContain(capability);
      }
    },
  );

  it.each(withParts)(
    '%s has the AWS adapters its grants call for, and no other',
    async (_name, _fn, role) => {
      const { parts } = (await entryOf(role)) as Required<Entry>;
      const grants = grantsOf(role);
      const has = (adapter: unknown) => parts.adapters.includes(adapter as never);
      expect(has(dynamodb)).toBe(parts.capabilities.some((c) => c.stores !== undefined));
      expect(has(sqsQueues)).toBe(grants.sends.length > 0);
      expect(has(s3Payloads)).toBe(grants.payloads !== undefined);
      expect(has(eventSinks)).toBe(grants.sends.includes('events') && grants.engine === 'decides');
      expect(has(openSearch)).toBe(grants.search !== undefined);
    },
  );
});

describe("every function's first invocation", () => {
  const key = { id: 'functions-key', secret: 'functions-secret-0123456789abcdef' };
  let dynamo: EmbeddedDynamo;
  let fake: FakeAws;
  let environments: Map<string, Record<string, string>>;

  beforeAll(async () => {
    dynamo = await startEmbeddedDynamo();
    fake = await startFakeAws({ dynamodb: dynamo.endpoint, secretString: JSON.stringify(key) });
    environments = new Map(
      functions.map((fn) => [
        fn.name,
        { ...localEnvironment(fn.environment, fake.endpoint), ...AWS_ENV(fake) },
      ]),
    );
    const session = dynamoSession(dynamo.client());
    await session.createTables(
      tableNamesFrom('functions-', tableNamesIn([...environments.values()], ALL_TABLES)),
      ALL_TABLES,
    );
    session.doc.destroy();
  }, 60_000);

  afterAll(async () => {
    await fake?.close();
    await dynamo?.close();
  });

  it.each(roles)(
    '%s answers',
    async (name, _fn: SynthesizedFunction, role) => {
      const token = issueToken(key, Date.now(), 60_000);
      const answer = await withEnvironment(environments.get(name) ?? {}, async () => {
        const { handler } = await entryOf(role);
        return handler(eventOf(role, token), { awsRequestId: `test-${name}` });
      });
      expect(summary(answer)).toMatch(expectedAnswer(role));
    },
    30_000,
  );

  it("serves, from the system function, an API document of every capability's routes", async () => {
    const [name, , role] = roles.find(([, , r]) => r.of === 'system') ?? [];
    if (!name || !role) throw new Error('no system function');
    const event = eventOf(role, '') as { rawPath: string; requestContext: { http: { path: string } } };
    event.rawPath = '/api-docs';
    event.requestContext.http.path = '/api-docs';
    const answer = (await withEnvironment(environments.get(name) ?? {}, async () =>
      (await entryOf(role)).handler(event, { awsRequestId: 'test-api-docs' }),
    )) as { statusCode: number; body: string };
    expect(answer.statusCode).toBe(200);
    const paths = Object.keys((JSON.parse(answer.body) as { paths: Record<string, unknown> }).paths);
    for (const path of [
      '/health',
      '/api/token',
      '/api/metadata/taskdefs',
      '/api/workflow/{workflowId}',
      '/api/tasks/poll/{taskType}',
      '/api/schema',
      '/api/scheduler/schedules',
      '/api/workflow/{workflowId}/messages',
      '/api/event',
      '/api/files/{workflowId}/{fileId}',
    ]) {
      expect(paths).toContain(path);
    }
  }, 30_000);
});

/** What the first invocation answers: a route a status of a read or a health check, a batch no failure. */
function expectedAnswer(role: FunctionRole): RegExp {
  switch (role.kind) {
    case 'route-group':
      return /^(200|404)$/;
    case 'consumer':
    case 'outside-sources':
      return /^0 failed$/;
    default:
      return /.*/;
  }
}

function summary(result: unknown): ColdStart['answer'] {
  const value = result as { statusCode?: number; body?: string; batchItemFailures?: unknown[] } | undefined;
  if (value?.statusCode !== undefined) {
    return value.statusCode >= 500 || value.statusCode === 401
      ? `${value.statusCode} ${value.body}`
      : String(value.statusCode);
  }
  if (Array.isArray(value?.batchItemFailures)) return `${value.batchItemFailures.length} failed`;
  return JSON.stringify(result ?? null);
}

/** The environment Lambda adds to the stack's: region, credentials, and every endpoint local. */
const AWS_ENV = (fake: FakeAws): Record<string, string> => ({
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'functions',
  AWS_SECRET_ACCESS_KEY: 'functions',
  AWS_ENDPOINT_URL: fake.endpoint,
  SERVICE_LOG_LEVEL: 'error',
});

/** Runs `fn` with these variables set, then puts the environment back as it was. */
async function withEnvironment<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
