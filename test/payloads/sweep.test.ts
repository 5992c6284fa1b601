/**
 * The payload sweep (lib/payloads/sweep.ts) on the real stores:
 * - the payload store adapters' listing and reclaim (memory, filesystem, S3 on an in-process
 *   s3rver): a payload written again since its listing is never reclaimed; on S3 reclaiming tags
 *   the object for the bucket's lifecycle rule, and a write that slips in before the tag is
 *   caught and untagged;
 * - the sweep itself on the local host, memory and embedded stores: the payloads of a removed run
 *   go once the grace period has passed, not before; a payload two runs share stays while one of
 *   them names it; a payload a schedule names stays while the schedule exists; a client's upload
 *   nothing names goes; and a process re-puts a payload it only read, so a reclaimed one comes back.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  GetObjectTaggingCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configOf } from '../../lib/config/load.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import { FilesystemPayloadStore } from '../../lib/payloads/filesystem.ts';
import { contentKey, PAYLOAD_PREFIX, UNREFERENCED_TAG, uploadKey } from '../../lib/payloads/keys.ts';
import { MemoryPayloadStore } from '../../lib/payloads/memory.ts';
import type { PayloadStore, StoredPayload } from '../../lib/payloads/ports.ts';
import { S3PayloadStore } from '../../lib/payloads/s3.ts';
import { MIN_SWEEP_GRACE_MS, type PayloadSweepResult, payloadSweep } from '../../lib/payloads/sweep.ts';
import { createServices } from '../../lib/runtime/services.ts';
import { uniqueName } from '../helpers/fixtures.ts';
import { type LocalS3rver, startS3rver } from '../helpers/s3.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { useTempDirs } from '../helpers/temp.ts';
import { ExecutionApi } from '../http/execution-api.ts';

const DAY = 86_400_000;
const tempDir = useTempDirs();

let s3: LocalS3rver;
let client: S3Client;
let buckets = 0;

beforeAll(async () => {
  s3 = await startS3rver();
  client = s3.client;
});

afterAll(async () => {
  await s3.close();
});

/** A bucket of its own, so a listing shows only this test's payloads. */
async function freshBucket(): Promise<string> {
  const bucket = `sweep-${++buckets}`;
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return bucket;
}

async function listed(store: PayloadStore): Promise<StoredPayload[]> {
  const out: StoredPayload[] = [];
  for await (const payload of store.list?.() ?? []) out.push(payload);
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

const tagsOf = async (bucket: string, key: string) =>
  (await client.send(new GetObjectTaggingCommand({ Bucket: bucket, Key: PAYLOAD_PREFIX + key }))).TagSet ??
  [];

interface Adapter {
  store: PayloadStore;
  /** Time passes for the store's write times (S3 keeps them to the second). */
  later(): Promise<void>;
  /** Whether the payload was reclaimed: gone (memory, filesystem) or tagged for the lifecycle rule (S3). */
  reclaimed(key: string): Promise<boolean>;
}

describe.each<[string, () => Promise<Adapter>]>([
  [
    'memory',
    async () => {
      let now = Date.UTC(2026, 0, 1);
      const store = new MemoryPayloadStore(() => now);
      return {
        store,
        later: async () => {
          now += 1000;
        },
        reclaimed: async (key) => (await store.get(key)) === undefined,
      };
    },
  ],
  [
    'filesystem',
    async () => {
      const store = new FilesystemPayloadStore(tempDir('payloads-'));
      return {
        store,
        later: () => new Promise((done) => setTimeout(done, 20)),
        reclaimed: async (key) => (await store.get(key)) === undefined,
      };
    },
  ],
  [
    'S3 (s3rver)',
    async () => {
      const bucket = await freshBucket();
      return {
        store: new S3PayloadStore(client, bucket),
        later: () => new Promise((done) => setTimeout(done, 1100)),
        reclaimed: async (key) =>
          (await tagsOf(bucket, key)).some(
            (tag) => tag.Key === UNREFERENCED_TAG.Key && tag.Value === UNREFERENCED_TAG.Value,
          ),
      };
    },
  ],
])('the %s payload store, swept', (_name, create) => {
  it('lists every payload with the time of its last write', async () => {
    const { store } = await create();
    const before = Date.now();
    const a = contentKey('{"a":1}');
    const b = uploadKey('TASK_OUTPUT');
    await store.put(a, '{"a":1}');
    await store.put(b, '{"b":2}');
    const payloads = await listed(store);
    expect(payloads.map((p) => p.key)).toEqual([a, b].sort());
    for (const { writtenAt } of payloads) {
      expect(Number.isFinite(writtenAt)).toBe(true);
      if (_name !== 'memory') expect(Math.abs(writtenAt - before)).toBeLessThan(5000);
    }
  });

  it('reclaims a payload not written since its listing, once', async () => {
    const { store, reclaimed } = await create();
    const key = contentKey('{"gone":true}');
    await store.put(key, '{"gone":true}');
    const [payload] = await listed(store);
    expect(await reclaimed(key)).toBe(false);
    expect(await store.reclaim?.(key, payload?.writtenAt ?? 0)).toBe(true);
    expect(await reclaimed(key)).toBe(true);
  });

  it('leaves a payload written again since its listing', { timeout: 10_000 }, async () => {
    const { store, later, reclaimed } = await create();
    const key = contentKey('{"again":true}');
    await store.put(key, '{"again":true}');
    const [payload] = await listed(store);
    await later();
    await store.put(key, '{"again":true}');
    expect(await store.reclaim?.(key, payload?.writtenAt ?? 0)).toBe(false);
    expect(await reclaimed(key)).toBe(false);
    expect(await store.get(key)).toBe('{"again":true}');
  });

  it('answers false for a payload that is gone', async () => {
    const { store } = await create();
    expect(await store.reclaim?.(contentKey('{"never":1}'), 0)).toBe(false);
  });
});

describe('the filesystem payload store, listed', () => {
  it('lists payload keys only: no temporary file of a write in progress, no stray file', async () => {
    const dir = tempDir('payloads-');
    const store = new FilesystemPayloadStore(dir);
    const key = contentKey('{"k":1}');
    await store.put(key, '{"k":1}');
    writeFileSync(join(dir, `${key}.0000.tmp`), '{');
    writeFileSync(join(dir, 'sha256', 'notes.txt'), 'x');
    expect((await listed(store)).map((p) => p.key)).toEqual([key]);
  });

  it('never deletes a write that comes while a reclaim of the key is under way', async () => {
    const store = new FilesystemPayloadStore(tempDir('payloads-'));
    const key = contentKey('{"race":1}');
    await store.put(key, '{"race":1}');
    const [payload] = await listed(store);
    await new Promise((done) => setTimeout(done, 20));
    // Both at once: the write waits for the reclaim's turn or the reclaim sees the write.
    const [reclaimedIt] = await Promise.all([
      store.reclaim(key, payload?.writtenAt ?? 0),
      store.put(key, '{"race":1}'),
    ]);
    expect(reclaimedIt).toBe(true);
    expect(await store.get(key)).toBe('{"race":1}');
  });
});

describe('the S3 payload store, swept', () => {
  it('untags a payload written between its check and its tag', { timeout: 10_000 }, async () => {
    const bucket = await freshBucket();
    const store = new S3PayloadStore(client, bucket);
    const key = contentKey('{"slipped":1}');
    await store.put(key, '{"slipped":1}');
    const [payload] = await listed(store);
    await new Promise((done) => setTimeout(done, 1100));
    // Just before the tag is put, another process writes the key again (as a run needing it would).
    let tagging = 0;
    client.middlewareStack.add(
      (next) => async (args) => {
        const input = args.input as { Tagging?: { TagSet?: unknown[] } };
        if (input.Tagging?.TagSet?.length && tagging++ === 0) {
          await client.send(
            new PutObjectCommand({ Bucket: bucket, Key: PAYLOAD_PREFIX + key, Body: '{"slipped":1}' }),
          );
        }
        return next(args);
      },
      { step: 'initialize', name: 'writeBeforeTag' },
    );
    try {
      expect(await store.reclaim(key, payload?.writtenAt ?? 0)).toBe(false);
    } finally {
      client.middlewareStack.remove('writeBeforeTag');
    }
    expect(tagging).toBe(1);
    expect(await tagsOf(bucket, key)).toEqual([]);
    expect(await store.get(key)).toBe('{"slipped":1}');
  });

  it('tags with the tag the lifecycle rule expires', async () => {
    const bucket = await freshBucket();
    await client.send(
      new PutObjectCommand({ Bucket: bucket, Key: `${PAYLOAD_PREFIX}${contentKey('{}')}`, Body: '{}' }),
    );
    const store = new S3PayloadStore(client, bucket);
    const [payload] = await listed(store);
    expect(await store.reclaim(contentKey('{}'), payload?.writtenAt ?? 0)).toBe(true);
    expect(await tagsOf(bucket, contentKey('{}'))).toEqual([
      { Key: 'conductor-payload', Value: 'unreferenced' },
    ]);
    // Untagging (a write slipped in) is a tag set with no tags, which S3 and s3rver both take.
    await client.send(
      new PutObjectTaggingCommand({
        Bucket: bucket,
        Key: `${PAYLOAD_PREFIX}${contentKey('{}')}`,
        Tagging: { TagSet: [] },
      }),
    );
    expect(await tagsOf(bucket, contentKey('{}'))).toEqual([]);
  });
});

describe.each(['memory', 'embedded'] as const)('the payload sweep on the local host, %s store', (store) => {
  let server: TestServer;
  let clock: ManualClock;
  let api: ExecutionApi;

  afterEach(async () => {
    await server?.close();
  });

  async function start(overrides: Record<string, string | number | boolean> = {}): Promise<void> {
    // The payloads' write times are the machine's (the payload store's clock, or file times): the
    // service's clock starts there, and moves on.
    clock = new ManualClock(Date.now());
    server = await startTestServer(
      { 'service.external-payload.threshold-bytes': 1024, ...overrides },
      { clock, store },
    );
    api = new ExecutionApi(server);
  }

  const payloads = () => server.server.services.payloads;
  const keys = async () => (await listed(payloads())).map((p) => p.key);

  async function sweep(): Promise<PayloadSweepResult> {
    const outcomes = await server.server.jobs.tick(clock.now());
    const outcome = outcomes.find((o) => o.job === payloadSweep.name);
    if (outcome?.error) throw new Error(outcome.error);
    return outcome?.result as PayloadSweepResult;
  }

  async function registerWorkflow(): Promise<string> {
    const name = uniqueName('payloads');
    await api.registerWorkflow({
      name,
      version: 1,
      schemaVersion: 2,
      tasks: [{ name: 'work', taskReferenceName: 'work', type: 'SIMPLE', inputParameters: {} }],
    });
    return name;
  }

  const remove = async (id: string) => {
    const response = await server.fetch(`${server.url}/api/workflow/${id}/terminate-remove`, {
      method: 'DELETE',
    });
    expect(response.status, await response.text()).toBe(200);
  };

  const bigInput = (tag: string) => ({ blob: `${tag}-${'x'.repeat(4000)}` });

  it("reclaims a removed run's payloads once the grace period is over, not before", async () => {
    await start();
    const name = await registerWorkflow();
    const id = await api.start(name, bigInput('removed'));
    const run = await api.workflow(id);
    expect(run.externalInputPayloadStoragePath).toMatch(/^sha256\//);
    expect(await keys()).toEqual([run.externalInputPayloadStoragePath]);

    await remove(id);
    // Within the grace period (two days by default) nothing is a candidate: no store is read.
    clock.advance(DAY);
    expect(await sweep()).toEqual({ stored: 1, candidates: 0, unreferenced: 0, reclaimed: 0 });
    expect(await keys()).toHaveLength(1);

    clock.advance(2 * DAY);
    expect(await sweep()).toEqual({ stored: 1, candidates: 1, unreferenced: 1, reclaimed: 1 });
    expect(await keys()).toEqual([]);
  });

  it('keeps a payload two runs share while either names it', async () => {
    await start();
    const name = await registerWorkflow();
    const first = await api.start(name, bigInput('shared'));
    const second = await api.start(name, bigInput('shared'));
    const path = (await api.workflow(first)).externalInputPayloadStoragePath;
    // One payload, named by both runs' content.
    expect((await api.workflow(second)).externalInputPayloadStoragePath).toBe(path);
    expect(await keys()).toEqual([path]);

    await remove(first);
    clock.advance(3 * DAY);
    expect(await sweep()).toMatchObject({ candidates: 1, unreferenced: 0, reclaimed: 0 });
    expect((await api.workflow(second)).input).toEqual(bigInput('shared'));

    await remove(second);
    expect(await sweep()).toMatchObject({ candidates: 1, unreferenced: 1, reclaimed: 1 });
    expect(await keys()).toEqual([]);
  });

  it('keeps an upload a schedule names while the schedule exists, and reclaims an upload nothing names', async () => {
    await start();
    const name = await registerWorkflow();
    const named = uploadKey('WORKFLOW_INPUT');
    const forgotten = uploadKey('WORKFLOW_INPUT');
    await payloads().put(named, JSON.stringify(bigInput('scheduled')));
    await payloads().put(forgotten, JSON.stringify(bigInput('forgotten')));
    const schedule = uniqueName('nightly');
    const saved = await server.fetch(`${server.url}/api/scheduler/schedules`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: schedule,
        cronExpression: '0 0 3 * * *',
        paused: true,
        startWorkflowRequest: { name, externalInputPayloadStoragePath: named },
      }),
    });
    expect(saved.status, await saved.text()).toBe(200);

    clock.advance(3 * DAY);
    expect(await sweep()).toMatchObject({ candidates: 2, unreferenced: 1, reclaimed: 1 });
    expect(await keys()).toEqual([named]);

    await server.fetch(`${server.url}/api/scheduler/schedules/${schedule}`, { method: 'DELETE' });
    expect(await sweep()).toMatchObject({ candidates: 1, unreferenced: 1, reclaimed: 1 });
    expect(await keys()).toEqual([]);
  });

  it('stores a reclaimed payload again for a run that needs it: by its content, or by its path while this process still holds it', async () => {
    await start();
    const name = await registerWorkflow();
    const first = await api.start(name, bigInput('again'));
    const path = (await api.workflow(first)).externalInputPayloadStoragePath as string;
    await remove(first);
    clock.advance(3 * DAY);
    expect(await sweep()).toMatchObject({ reclaimed: 1 });
    expect(await keys()).toEqual([]);

    // The same content again: this process put that key three days ago (by the service's clock),
    // longer than it trusts its own puts, so it puts it again rather than point at nothing.
    const again = await api.start(name, bigInput('again'));
    const run = await api.workflow(again);
    expect(run.externalInputPayloadStoragePath).toBe(path);
    expect(run.input).toEqual(bigInput('again'));
    expect(await keys()).toEqual([path]);
    await remove(again);
    clock.advance(3 * DAY);
    expect(await sweep()).toMatchObject({ reclaimed: 1 });

    // A client that kept the path: this process still holds the content (content keys never change
    // meaning), so the start is whole and the payload stored again. A process without it answers
    // 400, naming the path.
    const fromPath = await server.fetch(`${server.url}/api/workflow`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, version: 1, input: null, externalInputPayloadStoragePath: path }),
    });
    const byPath = await fromPath.text();
    expect(fromPath.status, byPath).toBe(200);
    expect((await api.workflow(byPath)).input).toEqual(bigInput('again'));
    expect(await keys()).toEqual([path]);
  });

  it('sweeps nothing when service.external-payload.sweep is off', async () => {
    await start({ 'service.external-payload.sweep': false });
    const name = await registerWorkflow();
    await remove(await api.start(name, bigInput('off')));
    clock.advance(3 * DAY);
    expect(await sweep()).toMatchObject({ skipped: 'service.external-payload.sweep is off' });
    expect(await keys()).toHaveLength(1);
  });
});

describe('the payload sweep configuration', () => {
  it('refuses a grace period shorter than two hours', () => {
    expect(MIN_SWEEP_GRACE_MS).toBe(2 * 3_600_000);
    expect(() =>
      createServices({
        config: configOf({ 'service.external-payload.sweep-grace': '1h' }),
        logger: silentLogger,
        clock: new ManualClock(),
        stores: undefined as never,
        decisions: undefined as never,
        scripts: undefined as never,
      }),
    ).toThrow(/sweep-grace must be at least 2h/);
  });
});
