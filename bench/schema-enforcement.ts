/**
 * Schema enforcement benchmark (`npm run bench:schema`): start latency (POST /api/workflow/{name})
 * of a one-task workflow with and without an enforced input schema (30 properties, draft 2020-12,
 * types, bounds, formats and required fields), side by side in one run: the two workflows are
 * started in turn, one call at a time, against the local server in a child process, so both see
 * the same machine load. Every start must answer 200; a violating input is checked to answer 400
 * once before measuring. Options: --starts=2000 --warmup=200 --stores=memory[,dynamodb]
 * --ttl=0 (service.app.schema-cache.ttl; 0 reads the schema record on every start).
 * Aim (issue 9): enforcement adds at most 10% to p50.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Args } from './lib/args.ts';
import { startChildServer } from './lib/child-server.ts';
import { expectStatus, HttpClient } from './lib/http-client.ts';
import { loadAverage } from './lib/machine.ts';
import { fmt, heading, mean, percentile, table } from './lib/stats.ts';

const args = new Args();
const starts = args.int('starts', 2000, 1);
const warmup = args.int('warmup', 200);
const ttl = args.string('ttl', '0');
const stores = args
  .string('stores', 'memory')
  .split(',')
  .map((s) => s.trim());

const SCHEMA = 'bench_order_input';
const PLAIN = 'bench_start_plain';
const ENFORCED = 'bench_start_enforced';

/** Thirty properties of every common kind, each required. */
function schemaData(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 30; i++) {
    const kind = i % 5;
    properties[`field${i}`] =
      kind === 0
        ? { type: 'string', minLength: 1, maxLength: 64 }
        : kind === 1
          ? { type: 'integer', minimum: 0, maximum: 1_000_000 }
          : kind === 2
            ? { type: 'string', format: 'email' }
            : kind === 3
              ? { type: 'boolean' }
              : { type: 'array', items: { type: 'number' }, maxItems: 10 };
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

function validInput(n: number): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (let i = 0; i < 30; i++) {
    const kind = i % 5;
    input[`field${i}`] =
      kind === 0
        ? `value-${n}`
        : kind === 1
          ? n
          : kind === 2
            ? `user${n}@example.com`
            : kind === 3
              ? true
              : [1, 2.5];
  }
  return input;
}

const definition = (name: string, extra: Record<string, unknown>) => ({
  name,
  version: 1,
  tasks: [{ name: 'bench_schema_work', taskReferenceName: 'work', type: 'SIMPLE' }],
  ...extra,
});

interface Result {
  store: string;
  plain: number[];
  enforced: number[];
}

async function measure(store: string): Promise<Result> {
  const dataDir = store === 'dynamodb' ? mkdtempSync(join(tmpdir(), 'bench-schema-')) : undefined;
  const server = await startChildServer({
    env: {
      SERVICE_STORE: store,
      SERVICE_APP_SCHEMA_CACHE_TTL: ttl,
      ...(dataDir ? { SERVICE_LOCAL_DATA_DIR: dataDir } : {}),
    },
  });
  const http = new HttpClient(server.url, 1);
  try {
    expectStatus(
      await http.post('/api/schema', { name: SCHEMA, type: 'JSON', data: schemaData() }),
      'schema',
    );
    expectStatus(await http.post('/api/metadata/workflow?overwrite=true', definition(PLAIN, {})), 'register');
    expectStatus(
      await http.post(
        '/api/metadata/workflow?overwrite=true',
        definition(ENFORCED, { inputSchema: { name: SCHEMA } }),
      ),
      'register',
    );
    expectStatus(await http.post(`/api/workflow/${ENFORCED}`, { field0: 5 }), 'violating start', [400]);
    const plain: number[] = [];
    const enforced: number[] = [];
    for (let i = 0; i < warmup + starts; i++) {
      for (const [name, into] of [
        [PLAIN, plain],
        [ENFORCED, enforced],
      ] as const) {
        const started = performance.now();
        expectStatus(await http.post(`/api/workflow/${name}`, validInput(i)), `start ${name}`);
        const elapsed = performance.now() - started;
        if (i >= warmup) into.push(elapsed);
      }
    }
    return { store, plain, enforced };
  } finally {
    http.close();
    await server.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

const results: Result[] = [];
for (const store of stores) results.push(await measure(store));

console.log(
  heading(
    `start of a one-task workflow, ${starts} starts each in turn (+${warmup} warm-up), schema cache ttl ${ttl}`,
  ),
);
console.log(
  table(
    ['store', 'input schema', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms', 'p50 overhead'],
    results.flatMap(({ store, plain, enforced }) => [
      [
        store,
        'none',
        fmt(percentile(plain, 50)),
        fmt(percentile(plain, 90)),
        fmt(percentile(plain, 99)),
        fmt(mean(plain)),
        '',
      ],
      [
        store,
        'enforced (30 properties, 2020-12)',
        fmt(percentile(enforced, 50)),
        fmt(percentile(enforced, 90)),
        fmt(percentile(enforced, 99)),
        fmt(mean(enforced)),
        `${fmt((percentile(enforced, 50) / percentile(plain, 50) - 1) * 100, 1)}%`,
      ],
    ]),
  ),
);
console.log(`load average: ${loadAverage()}`);
