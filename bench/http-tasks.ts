/**
 * What an HTTP task costs the store (`npx tsx bench/http-tasks.ts`): runs of five HTTP tasks
 * against a local echo server, through the engine with the in-process system-task pool, on the
 * metered in-memory store (bench/lib/metered-stores.ts: store reads and writes, and the DynamoDB
 * read and write units modelled from item sizes and index specs). Options: --runs=100.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryStores } from '../lib/runtime/stores.ts';
import { engineHarness } from '../test/helpers/engine.ts';
import { Args } from './lib/args.ts';
import { meteredStores } from './lib/metered-stores.ts';
import { StoreMeter } from './lib/store-meter.ts';

const RUNS = new Args().int('runs', 100, 1);
const TASKS_PER_RUN = 5;

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
});
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
const port = (server.address() as AddressInfo).port;
const meter = new StoreMeter({ sizes: true });
const stores = meteredStores(meter, createMemoryStores());
const h = await engineHarness({ stores, properties: { 'service.http-task.allow-private-networks': true } });
await h.register({
  name: 'calls',
  version: 1,
  tasks: Array.from({ length: TASKS_PER_RUN }, (_, n) => n + 1).map((i) => ({
    name: `call${i}`,
    taskReferenceName: `call${i}`,
    type: 'HTTP',
    inputParameters: { http_request: { uri: `http://127.0.0.1:${port}/x`, method: 'GET' } },
  })),
});
const ids: string[] = [];
for (let i = 0; i < RUNS; i++) ids.push(await h.start('calls', {}));
await h.settle();
for (let round = 0; round < 50; round++) {
  const runs = await Promise.all(ids.map((id) => h.run(id)));
  if (runs.every((r) => r.status === 'COMPLETED')) break;
  await new Promise((r) => setTimeout(r, 100));
  await h.settle();
}
const statuses = (await Promise.all(ids.map((id) => h.run(id)))).map((r) => r.status);
const snap = meter.snapshot();
const total = { reads: 0, writes: 0, readUnits: 0, writeUnits: 0 };
for (const t of snap.ops.values()) {
  total.reads += t.reads;
  total.writes += t.writes;
  total.readUnits += t.readUnits;
  total.writeUnits += t.writeUnits;
}
const per = (n: number) => (n / (RUNS * TASKS_PER_RUN)).toFixed(2);
console.log(`runs completed: ${statuses.filter((s) => s === 'COMPLETED').length} of ${RUNS}`);
console.log(
  `per HTTP task: ${per(total.reads)} store reads, ${per(total.writes)} writes; ` +
    `modelled ${per(total.readUnits)} RRU, ${per(total.writeUnits)} WRU`,
);
await h.close();
server.close();
