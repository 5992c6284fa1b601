/**
 * The embedded database under the adapters: a scan sees LevelDB's rows and the writes still in
 * the overlay (logged, not yet in LevelDB) as one state, a scope's scan only its own pending
 * writes, and the log alone brings back what LevelDB never received.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedDb, scopeOf } from '../../lib/store/embedded/database.ts';
import { embeddedDir } from '../helpers/embedded.ts';

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
});
