/**
 * The embedded database under the adapters: a scan sees LevelDB's rows and the writes still in
 * the overlay (logged, not yet in LevelDB) as one state, a scope's scan only its own pending
 * writes, and the log alone brings back what LevelDB never received.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TransientError } from '../../lib/model/errors.ts';
import { createEmbeddedStores } from '../../lib/runtime/stores.ts';
import { compareKeys, EmbeddedDb, scopeOf } from '../../lib/store/embedded/database.ts';
import { embeddedDir } from '../helpers/embedded.ts';
import { taskOf } from './executions.contract.ts';

const dirs: string[] = [];
const open: EmbeddedDb[] = [];
afterEach(async () => {
  for (const db of open.splice(0)) await db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function opened(dir: string): Promise<EmbeddedDb> {
  const db = await EmbeddedDb.open(dir);
  open.push(db);
  return db;
}

async function scan(db: EmbeddedDb, prefix: string): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for await (const entry of db.entries(prefix)) out.push(entry);
  return out;
}

const row = (run: string, task: string) => `x/t/${JSON.stringify(run)}${JSON.stringify(task)}`;

describe('the embedded database', () => {
  it('scans LevelDB and the pending writes as one state, in key order', async () => {
    const dir = embeddedDir();
    dirs.push(dir);
    let db = await opened(dir);
    for (const task of ['a', 'c', 'e']) db.put(row('r1', task), `disk-${task}`);
    db.put(row('r2', 'a'), 'other run');
    await db.sync();
    await db.close();
    open.pop();
    db = await opened(dir); // everything above is in LevelDB now

    db.put(row('r1', 'b'), 'pending-b');
    db.put(row('r1', 'c'), 'pending-c');
    db.del(row('r1', 'e'));
    db.put(row('r1', 'f'), 'pending-f');
    await db.sync();

    expect(await scan(db, `x/t/${JSON.stringify('r1')}`)).toEqual([
      [row('r1', 'a'), 'disk-a'],
      [row('r1', 'b'), 'pending-b'],
      [row('r1', 'c'), 'pending-c'],
      [row('r1', 'f'), 'pending-f'],
    ]);
    expect((await scan(db, 'x/t/')).map(([key]) => key)).toEqual([
      row('r1', 'a'),
      row('r1', 'b'),
      row('r1', 'c'),
      row('r1', 'f'),
      row('r2', 'a'),
    ]);
    expect(db.get(row('r1', 'e'))).toBeUndefined();
    expect(db.get(row('r1', 'c'))).toBe('pending-c');
  });

  it("keeps one run's scan apart from a run whose id starts the same", async () => {
    const dir = embeddedDir();
    dirs.push(dir);
    const db = await opened(dir);
    db.put(row('run', 't'), 'mine');
    db.put(row('run-2', 't'), 'not mine');
    db.put(row('ru"n', 't'), 'quoted');
    await db.sync();
    expect(await scan(db, `x/t/${JSON.stringify('run')}`)).toEqual([[row('run', 't'), 'mine']]);
    expect(await scan(db, `x/t/${JSON.stringify('ru"n')}`)).toEqual([[row('ru"n', 't'), 'quoted']]);
    expect(scopeOf(row('ru"n', 't'))).toBe(`x/t/${JSON.stringify('ru"n')}`);
    expect(scopeOf('m/table/key')).toBeUndefined();
  });

  it('brings back from the log, at open, writes LevelDB never received', async () => {
    const dir = embeddedDir();
    dirs.push(dir);
    const db = await opened(dir);
    db.put('x/r/run-1', 'logged only');
    await db.sync();
    // No close: LevelDB has not received the write (its batch waits a second). A second open
    // of the same directory is refused while this one holds it, so read a copy as a restart would.
    const { cpSync } = await import('node:fs');
    const copy = `${dir}-copy`;
    dirs.push(copy);
    cpSync(dir, copy, { recursive: true, filter: (source) => !source.endsWith('LOCK') });
    const restarted = await opened(copy);
    expect(restarted.get('x/r/run-1')).toBe('logged only');
  });

  it('fails a call whose writes a failed append dropped, even when the store recovered before it ended', async () => {
    const dir = embeddedDir();
    dirs.push(dir);
    let failNext = false;
    const db = await EmbeddedDb.open(dir, {
      beforeAppend: () => {
        if (failNext) {
          failNext = false;
          throw new Error('ENOSPC: no space left on device, write');
        }
      },
    });
    const stores = createEmbeddedStores(db);
    try {
      const ids = Array.from({ length: 50 }, (_, i) => `t-${i}`);
      await stores.executions.createTasks(ids.map((id, i) => taskOf('R', id, i + 1)));
      // deleteTasks records its deletes, then awaits its log scans; meanwhile another call's
      // append (carrying those deletes) fails and the store recovers from disk.
      const deleting = stores.executions.deleteTasks('R', ids);
      failNext = true;
      await expect(
        stores.executions.appendLogs([{ taskId: 't-0', log: 'x', createdTime: 1 }]),
      ).rejects.toThrow(TransientError);
      await expect(deleting).rejects.toThrow(TransientError);
      // Nothing was acknowledged, and nothing changed.
      expect(await stores.executions.listTasks('R')).toHaveLength(50);
    } finally {
      await stores.close();
    }
  });

  it('lists keys in LevelDB order, characters above U+FFFF after U+E000-U+FFFF', async () => {
    expect(['\u{1F600}', '\uFF01', 'a'].sort(compareKeys)).toEqual(['a', '\uFF01', '\u{1F600}']);
    const dir = embeddedDir();
    dirs.push(dir);
    let db = await opened(dir);
    db.put(row('r', '\u{1F600}'), 'disk');
    db.put(row('r', '\uFF01'), 'disk');
    await db.sync();
    await db.close();
    open.pop();
    db = await opened(dir);
    db.put(row('r', '\u{1F600}'), 'pending');
    db.put(row('r', '\uFF01'), 'pending');
    await db.sync();
    expect(await scan(db, `x/t/${JSON.stringify('r')}`)).toEqual([
      [row('r', '\uFF01'), 'pending'],
      [row('r', '\u{1F600}'), 'pending'],
    ]);
  });

  it('keeps a name holding an unpaired surrogate as it is across a restart', async () => {
    const dir = embeddedDir();
    dirs.push(dir);
    const name = 'a\ud800b';
    let stores = createEmbeddedStores(await EmbeddedDb.open(dir));
    await stores.taskDefs.put({ name } as never);
    await stores.executions.createTasks([taskOf(name, name, 1)]);
    await stores.close();
    stores = createEmbeddedStores(await EmbeddedDb.open(dir));
    try {
      expect((await stores.taskDefs.get(name))?.name).toBe(name);
      expect((await stores.executions.findTask(name))?.taskId).toBe(name);
      expect((await stores.executions.listTasks(name)).map((t) => t.taskId)).toEqual([name]);
    } finally {
      await stores.close();
    }
  });

  it("logs a worker's last poll within a second, without making the poll wait for it", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const dir = embeddedDir();
    dirs.push(dir);
    const stores = createEmbeddedStores(await EmbeddedDb.open(dir));
    const crashCopy = async (name: string) => {
      const { cpSync } = await import('node:fs');
      const copy = `${dir}-${name}`;
      dirs.push(copy);
      cpSync(dir, copy, { recursive: true, filter: (source) => !source.endsWith('LOCK') });
      return copy;
    };
    const lastPollsIn = async (copy: string) => {
      const reopened = createEmbeddedStores(await EmbeddedDb.open(copy));
      try {
        return (await reopened.pollData.list()).map((p) => p.workerId);
      } finally {
        await reopened.close();
      }
    };
    try {
      await stores.pollData.record({ queueName: 'q', workerId: 'w1', lastPollTime: 1 });
      // Not logged yet (any store call would log it: a crash copy is taken before one).
      expect(await lastPollsIn(await crashCopy('before'))).toEqual([]);
      vi.advanceTimersByTime(1000);
      expect(await lastPollsIn(await crashCopy('after-a-second'))).toEqual(['w1']);
      // Or sooner, with the next call that must be durable.
      await stores.pollData.record({ queueName: 'q', workerId: 'w2', lastPollTime: 2 });
      await stores.queue.push([{ queueName: 'q', taskId: 't', workflowId: 'r', priority: 0, visibleAt: 0 }]);
      expect((await lastPollsIn(await crashCopy('with-a-push'))).sort()).toEqual(['w1', 'w2']);
      expect((await stores.pollData.list()).map((p) => p.workerId).sort()).toEqual(['w1', 'w2']);
    } finally {
      vi.useRealTimers();
      await stores.close();
    }
  });
});
