/**
 * The contract of the definition ports (WorkflowDefStore, TaskDefStore), run against every adapter:
 * definitions.memory.test.ts and definitions.dynamodb.test.ts. Anything an adapter must do to keep
 * the services above it backend-agnostic is asserted here, once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskDef, WorkflowDef } from '../../lib/model/definitions.ts';
import { ConflictError } from '../../lib/model/errors.ts';
import type { Tag } from '../../lib/model/tags.ts';
import type { Stores } from '../../lib/store/ports.ts';

/**
 * A store may hand out copies (changing one is harmless) or frozen objects (changing one throws a
 * TypeError); either way the stored definition must not change.
 */
function attempt(mutate: () => void): void {
  try {
    mutate();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}

export interface StoresUnderTest {
  stores: Stores;
  cleanup(): Promise<void>;
}

/** A complete workflow definition, as the services hand it to the store. */
export function workflowDefOf(name: string, version: number, extra: Partial<WorkflowDef> = {}): WorkflowDef {
  return {
    name,
    version,
    description: `${name} v${version}`,
    tasks: [
      {
        name: 'first_task',
        taskReferenceName: 'first',
        type: 'SIMPLE',
        inputParameters: { value: 'static input', nested: { list: [1, 2] } },
        optional: false,
        startDelay: 0,
        asyncComplete: false,
      },
    ],
    inputParameters: ['value'],
    outputParameters: { result: 'static output' },
    schemaVersion: 2,
    restartable: true,
    workflowStatusListenerEnabled: false,
    timeoutPolicy: 'ALERT_ONLY',
    timeoutSeconds: 0,
    variables: {},
    inputTemplate: {},
    createTime: 1_700_000_000_000 + version,
    ...extra,
  };
}

/** A complete task definition, as the services hand it to the store. */
export function taskDefOf(name: string, extra: Partial<TaskDef> = {}): TaskDef {
  return {
    name,
    retryCount: 3,
    retryLogic: 'FIXED',
    retryDelaySeconds: 60,
    backoffScaleFactor: 1,
    timeoutSeconds: 3600,
    timeoutPolicy: 'TIME_OUT_WF',
    responseTimeoutSeconds: 600,
    ownerEmail: 'owner@example.com',
    ...extra,
  };
}

const keysOf = (defs: readonly WorkflowDef[]) => defs.map((d) => `${d.name}:${d.version}`);

/** Names that break naive key encodings: separators, path characters, spaces, non-ASCII. */
const AWKWARD_NAMES = ['order#2', 'a/b/c', 'with space', 'ünïcödé_名前_🚀', 'trailing#', '#leading'];

export function definitionStoreContract(name: string, factory: () => Promise<StoresUnderTest>): void {
  describe(`definition stores contract: ${name}`, () => {
    let subject: StoresUnderTest;
    let stores: Stores;

    beforeEach(async () => {
      subject = await factory();
      stores = subject.stores;
    });

    afterEach(async () => {
      await subject.cleanup();
    });

    describe('workflow definitions', () => {
      it('round-trips every field, including unknown extra fields, nested objects and unicode', async () => {
        const def = workflowDefOf('round_trip', 1, {
          ownerEmail: 'ünï@example.com',
          metadata: { labels: ['a', 'b'], nested: { deeper: { n: 1.5, flag: true, none: null } } },
          variables: { greeting: 'こんにちは 👋', count: 0 },
          futureField: { list: [1, 'two', { three: [3] }], empty: {}, emptyList: [] },
          anotherUnknown: 'kept',
        });
        def.tasks.push({
          name: 'decide',
          taskReferenceName: 'decide',
          type: 'SWITCH',
          inputParameters: {},
          optional: false,
          startDelay: 0,
          asyncComplete: false,
          evaluatorType: 'value-param',
          expression: 'switchCaseValue',
          decisionCases: { yes: [], 'with space': [] },
          taskExtra: { x: 'y' },
        });

        await stores.workflowDefs.put(def, { overwrite: false });

        expect(await stores.workflowDefs.get('round_trip', 1)).toEqual(def);
        expect(await stores.workflowDefs.get('round_trip')).toEqual(def);
      });

      it('returns the highest version as latest, ordering versions numerically not lexically', async () => {
        for (const version of [1, 10, 2]) {
          await stores.workflowDefs.put(workflowDefOf('numeric', version), { overwrite: false });
        }

        const latest = await stores.workflowDefs.get('numeric');
        expect(latest?.version).toBe(10);
        expect(latest?.description).toBe('numeric v10');
        expect((await stores.workflowDefs.get('numeric', 2))?.version).toBe(2);
      });

      it('returns undefined for a missing name or a missing version of an existing name', async () => {
        await stores.workflowDefs.put(workflowDefOf('present', 1), { overwrite: false });

        expect(await stores.workflowDefs.get('absent')).toBeUndefined();
        expect(await stores.workflowDefs.get('absent', 1)).toBeUndefined();
        expect(await stores.workflowDefs.get('present', 2)).toBeUndefined();
        expect(await stores.workflowDefs.versions('absent')).toEqual([]);
      });

      it('rejects a second put of the same version without overwrite and keeps the stored one', async () => {
        const original = workflowDefOf('conflict', 3, { description: 'original' });
        await stores.workflowDefs.put(original, { overwrite: false });

        const attempt = stores.workflowDefs.put(
          workflowDefOf('conflict', 3, { description: 'replacement' }),
          {
            overwrite: false,
          },
        );

        await expect(attempt).rejects.toBeInstanceOf(ConflictError);
        await expect(attempt).rejects.toThrow(/conflict\.3/);
        expect(await stores.workflowDefs.get('conflict', 3)).toEqual(original);
        expect(await stores.workflowDefs.versions('conflict')).toHaveLength(1);
      });

      it('allows the same version number under another name without overwrite', async () => {
        await stores.workflowDefs.put(workflowDefOf('first_name', 1), { overwrite: false });
        await stores.workflowDefs.put(workflowDefOf('second_name', 1), { overwrite: false });

        expect(keysOf(await stores.workflowDefs.list())).toEqual(['first_name:1', 'second_name:1']);
      });

      it('replaces the stored version when overwrite is true', async () => {
        await stores.workflowDefs.put(workflowDefOf('replace', 1, { description: 'before' }), {
          overwrite: false,
        });
        const replacement = workflowDefOf('replace', 1, { description: 'after', extraField: 42 });

        await stores.workflowDefs.put(replacement, { overwrite: true });

        expect(await stores.workflowDefs.get('replace', 1)).toEqual(replacement);
        expect(await stores.workflowDefs.versions('replace')).toHaveLength(1);
      });

      it('creates a new version when overwrite is true and the version does not exist yet', async () => {
        const def = workflowDefOf('upsert_new', 7);

        await stores.workflowDefs.put(def, { overwrite: true });

        expect(await stores.workflowDefs.get('upsert_new')).toEqual(def);
      });

      it('lists the versions of one name in ascending numeric order', async () => {
        for (const version of [10, 1, 3, 2, 100]) {
          await stores.workflowDefs.put(workflowDefOf('ordered', version), { overwrite: false });
        }
        await stores.workflowDefs.put(workflowDefOf('ordered_other', 5), { overwrite: false });

        const versions = await stores.workflowDefs.versions('ordered');

        expect(versions.map((d) => d.version)).toEqual([1, 2, 3, 10, 100]);
        expect(versions.every((d) => d.name === 'ordered')).toBe(true);
        expect(versions[3]).toEqual(workflowDefOf('ordered', 10));
      });

      it('does not mix versions of a name with those of a name it prefixes', async () => {
        await stores.workflowDefs.put(workflowDefOf('order', 1), { overwrite: false });
        await stores.workflowDefs.put(workflowDefOf('order#2', 5), { overwrite: false });
        await stores.workflowDefs.put(workflowDefOf('order#2', 6), { overwrite: false });

        expect((await stores.workflowDefs.versions('order')).map((d) => d.version)).toEqual([1]);
        expect((await stores.workflowDefs.get('order'))?.version).toBe(1);
        expect((await stores.workflowDefs.get('order#2'))?.version).toBe(6);
      });

      it('lists every definition of every name, by name then version', async () => {
        const puts: [string, number][] = [
          ['beta', 2],
          ['alpha', 10],
          ['beta', 1],
          ['alpha', 2],
          ['gamma', 1],
          ['alpha', 1],
        ];
        for (const [wf, version] of puts) {
          await stores.workflowDefs.put(workflowDefOf(wf, version), { overwrite: false });
        }

        const all = await stores.workflowDefs.list();

        expect(keysOf(all)).toEqual(['alpha:1', 'alpha:2', 'alpha:10', 'beta:1', 'beta:2', 'gamma:1']);
        expect(all[2]).toEqual(workflowDefOf('alpha', 10));
      });

      it('lists nothing when nothing is stored', async () => {
        expect(await stores.workflowDefs.list()).toEqual([]);
      });

      it('deletes one version, answering true then false, and falls back to the next-highest', async () => {
        for (const version of [1, 2, 10]) {
          await stores.workflowDefs.put(workflowDefOf('deletable', version), { overwrite: false });
        }

        expect(await stores.workflowDefs.delete('deletable', 10)).toBe(true);
        expect(await stores.workflowDefs.delete('deletable', 10)).toBe(false);

        expect(await stores.workflowDefs.get('deletable', 10)).toBeUndefined();
        expect((await stores.workflowDefs.get('deletable'))?.version).toBe(2);
        expect((await stores.workflowDefs.versions('deletable')).map((d) => d.version)).toEqual([1, 2]);
        expect(keysOf(await stores.workflowDefs.list())).toEqual(['deletable:1', 'deletable:2']);
      });

      it('forgets a name once its last version is deleted, and may register it again', async () => {
        await stores.workflowDefs.put(workflowDefOf('ephemeral', 1), { overwrite: false });

        expect(await stores.workflowDefs.delete('ephemeral', 1)).toBe(true);

        expect(await stores.workflowDefs.get('ephemeral')).toBeUndefined();
        expect(await stores.workflowDefs.versions('ephemeral')).toEqual([]);
        expect(await stores.workflowDefs.list()).toEqual([]);
        await stores.workflowDefs.put(workflowDefOf('ephemeral', 1), { overwrite: false });
        expect((await stores.workflowDefs.get('ephemeral'))?.version).toBe(1);
      });

      it('answers false when deleting a name that never existed', async () => {
        expect(await stores.workflowDefs.delete('never', 1)).toBe(false);
      });

      it('cannot be changed through a returned or a passed-in definition', async () => {
        const def = workflowDefOf('copies', 1, { metadata: { tag: 'original' } });
        await stores.workflowDefs.put(def, { overwrite: false });
        def.description = 'mutated after put';

        const fromGet = await stores.workflowDefs.get('copies', 1);
        if (!fromGet) throw new Error('expected a stored definition');
        attempt(() => {
          fromGet.description = 'mutated';
        });
        attempt(() => {
          fromGet.tasks.length = 0;
        });
        attempt(() => {
          (fromGet.metadata as Record<string, unknown>).tag = 'mutated';
        });
        const fromList = await stores.workflowDefs.list();
        const firstListed = fromList[0];
        if (!firstListed) throw new Error('expected a listed definition');
        attempt(() => {
          firstListed.version = 99;
        });
        const fromVersions = await stores.workflowDefs.versions('copies');
        fromVersions.length = 0;

        const again = await stores.workflowDefs.get('copies');
        expect(again).toEqual(workflowDefOf('copies', 1, { metadata: { tag: 'original' } }));
        expect(keysOf(await stores.workflowDefs.list())).toEqual(['copies:1']);
      });

      it.each(AWKWARD_NAMES)('stores, lists and deletes a workflow named %j', async (awkward) => {
        const v1 = workflowDefOf(awkward, 1);
        const v2 = workflowDefOf(awkward, 2, { description: `second of ${awkward}` });
        await stores.workflowDefs.put(v1, { overwrite: false });
        await stores.workflowDefs.put(v2, { overwrite: false });
        await stores.workflowDefs.put(workflowDefOf('plain', 1), { overwrite: false });

        expect(await stores.workflowDefs.get(awkward)).toEqual(v2);
        expect(await stores.workflowDefs.get(awkward, 1)).toEqual(v1);
        expect(await stores.workflowDefs.versions(awkward)).toEqual([v1, v2]);
        expect(keysOf(await stores.workflowDefs.list())).toContain(`${awkward}:2`);
        await expect(stores.workflowDefs.put(v1, { overwrite: false })).rejects.toBeInstanceOf(ConflictError);
        expect(await stores.workflowDefs.delete(awkward, 2)).toBe(true);
        expect(await stores.workflowDefs.get(awkward)).toEqual(v1);
      });

      it('sorts names containing separators, spaces, case and unicode by code unit', async () => {
        for (const wf of ['ünï', 'beta', 'alpha', 'a b', 'Alpha', 'a#b', 'a/b']) {
          await stores.workflowDefs.put(workflowDefOf(wf, 1), { overwrite: false });
        }

        expect((await stores.workflowDefs.list()).map((d) => d.name)).toEqual([
          'Alpha',
          'a b',
          'a#b',
          'a/b',
          'alpha',
          'beta',
          'ünï',
        ]);
      });
    });

    describe('task definitions', () => {
      it('round-trips every field, including unknown extra fields and unicode', async () => {
        const def = taskDefOf('round_trip_task', {
          description: 'Ünïcödé task 🚀',
          inputKeys: ['a', 'b'],
          inputTemplate: { nested: { list: [1, { deep: 'value' }], nothing: null } },
          rateLimitPerFrequency: 5,
          futureField: { anything: ['goes'] },
        });

        await stores.taskDefs.put(def);

        expect(await stores.taskDefs.get('round_trip_task')).toEqual(def);
      });

      it('returns undefined for a missing name', async () => {
        expect(await stores.taskDefs.get('absent_task')).toBeUndefined();
      });

      it('replaces an existing definition on put (upsert)', async () => {
        await stores.taskDefs.put(taskDefOf('upsert', { retryCount: 1, description: 'before' }));
        const replacement = taskDefOf('upsert', { retryCount: 7 });

        await stores.taskDefs.put(replacement);

        const stored = await stores.taskDefs.get('upsert');
        expect(stored).toEqual(replacement);
        expect(stored?.description).toBeUndefined();
        expect(await stores.taskDefs.list()).toHaveLength(1);
      });

      it('gets many at once, returning only the names that exist', async () => {
        await stores.taskDefs.put(taskDefOf('one', { retryCount: 1 }));
        await stores.taskDefs.put(taskDefOf('two', { retryCount: 2 }));

        const found = await stores.taskDefs.getMany(['two', 'missing', 'one', 'two']);

        expect([...found.keys()].sort()).toEqual(['one', 'two']);
        expect(found.get('one')).toEqual(taskDefOf('one', { retryCount: 1 }));
        expect(found.get('two')?.retryCount).toBe(2);
        expect(found.has('missing')).toBe(false);
        expect((await stores.taskDefs.getMany([])).size).toBe(0);
      });

      it('gets more than one batch of names at once (130 stored, 150 asked)', async () => {
        const nameOf = (i: number) => `bulk_${String(i).padStart(3, '0')}`;
        for (let i = 0; i < 130; i++) await stores.taskDefs.put(taskDefOf(nameOf(i), { retryCount: i }));

        const asked = Array.from({ length: 150 }, (_, i) => nameOf(149 - i));
        const found = await stores.taskDefs.getMany(asked);

        expect(found.size).toBe(130);
        for (let i = 0; i < 150; i++) {
          if (i < 130) expect(found.get(nameOf(i))?.retryCount).toBe(i);
          else expect(found.has(nameOf(i))).toBe(false);
        }
      });

      it('lists every definition sorted by name', async () => {
        for (const task of ['zeta', 'alpha', 'Mu', 'a b', 'ünï', 'a#b'])
          await stores.taskDefs.put(taskDefOf(task));

        const listed = await stores.taskDefs.list();

        expect(listed.map((d) => d.name)).toEqual(['Mu', 'a b', 'a#b', 'alpha', 'zeta', 'ünï']);
        expect(listed[3]).toEqual(taskDefOf('alpha'));
      });

      it('lists nothing when nothing is stored', async () => {
        expect(await stores.taskDefs.list()).toEqual([]);
      });

      it('deletes one, answering true then false', async () => {
        await stores.taskDefs.put(taskDefOf('doomed'));
        await stores.taskDefs.put(taskDefOf('survivor'));

        expect(await stores.taskDefs.delete('doomed')).toBe(true);
        expect(await stores.taskDefs.delete('doomed')).toBe(false);

        expect(await stores.taskDefs.get('doomed')).toBeUndefined();
        expect((await stores.taskDefs.list()).map((d) => d.name)).toEqual(['survivor']);
        expect([...(await stores.taskDefs.getMany(['doomed', 'survivor'])).keys()]).toEqual(['survivor']);
      });

      it('cannot be changed through a returned or a passed-in definition', async () => {
        const def = taskDefOf('copied', { inputKeys: ['a'] });
        await stores.taskDefs.put(def);
        def.retryCount = 100;

        const fromGet = await stores.taskDefs.get('copied');
        if (!fromGet) throw new Error('expected a stored definition');
        attempt(() => {
          fromGet.retryCount = 50;
        });
        attempt(() => {
          fromGet.inputKeys?.push('b');
        });
        const fromMany = (await stores.taskDefs.getMany(['copied'])).get('copied');
        if (!fromMany) throw new Error('expected a batch-read definition');
        attempt(() => {
          fromMany.description = 'mutated';
        });
        const fromList = await stores.taskDefs.list();
        const firstListed = fromList[0];
        if (!firstListed) throw new Error('expected a listed definition');
        attempt(() => {
          firstListed.timeoutSeconds = 1;
        });

        expect(await stores.taskDefs.get('copied')).toEqual(taskDefOf('copied', { inputKeys: ['a'] }));
      });

      it.each(AWKWARD_NAMES)('stores, batch-reads, lists and deletes a task named %j', async (awkward) => {
        const def = taskDefOf(awkward, { description: `task ${awkward}` });
        await stores.taskDefs.put(def);
        await stores.taskDefs.put(taskDefOf('plain_task'));

        expect(await stores.taskDefs.get(awkward)).toEqual(def);
        expect((await stores.taskDefs.getMany([awkward, 'plain_task'])).get(awkward)).toEqual(def);
        expect((await stores.taskDefs.list()).map((d) => d.name)).toContain(awkward);
        expect(await stores.taskDefs.delete(awkward)).toBe(true);
        expect(await stores.taskDefs.get(awkward)).toBeUndefined();
        expect(await stores.taskDefs.get('plain_task')).toEqual(taskDefOf('plain_task'));
      });

      it('keeps task and workflow definitions of the same name apart', async () => {
        await stores.taskDefs.put(taskDefOf('shared_name'));
        await stores.workflowDefs.put(workflowDefOf('shared_name', 1), { overwrite: false });

        expect(await stores.taskDefs.delete('shared_name')).toBe(true);

        expect((await stores.workflowDefs.get('shared_name'))?.version).toBe(1);
        expect(keysOf(await stores.workflowDefs.list())).toEqual(['shared_name:1']);
        expect(await stores.taskDefs.list()).toEqual([]);
      });
    });

    describe('tags', () => {
      const env = { key: 'env', value: 'prod' };
      const team = { key: 'team', value: 'payments' };
      const add = (added: Tag) => (tags: Tag[]) => [...tags.filter((t) => t.key !== added.key), added];

      it('keeps a workflow name the tags its changes leave, for every version, apart from the definitions', async () => {
        await stores.workflowDefs.put(workflowDefOf('tagged', 1), { overwrite: false });
        await stores.workflowDefs.put(workflowDefOf('tagged', 2), { overwrite: false });
        expect(await stores.workflowDefs.tags('tagged')).toEqual([]);

        expect(await stores.workflowDefs.changeTags('tagged', add(env))).toEqual([env]);
        expect(await stores.workflowDefs.changeTags('tagged', add(team))).toEqual([env, team]);

        expect(await stores.workflowDefs.tags('tagged')).toEqual([env, team]);
        expect(await stores.workflowDefs.get('tagged')).toEqual(workflowDefOf('tagged', 2));
        expect(keysOf(await stores.workflowDefs.versions('tagged'))).toEqual(['tagged:1', 'tagged:2']);
        expect(keysOf(await stores.workflowDefs.list())).toEqual(['tagged:1', 'tagged:2']);
        // A new version and a replaced one keep them: they belong to the name.
        await stores.workflowDefs.put(workflowDefOf('tagged', 3), { overwrite: false });
        await stores.workflowDefs.put(workflowDefOf('tagged', 1, { description: 'again' }), {
          overwrite: true,
        });
        expect(await stores.workflowDefs.tags('tagged')).toEqual([env, team]);
        expect((await stores.workflowDefs.get('tagged'))?.version).toBe(3);
      });

      it('lists the tags of every workflow name that has some, and forgets an emptied list', async () => {
        await stores.workflowDefs.put(workflowDefOf('with_tags', 1), { overwrite: false });
        await stores.workflowDefs.put(workflowDefOf('without_tags', 1), { overwrite: false });
        await stores.workflowDefs.changeTags('with_tags', () => [env]);
        await stores.workflowDefs.changeTags('without_tags', () => [team]);
        await stores.workflowDefs.changeTags('without_tags', () => []);

        expect(await stores.workflowDefs.allTags()).toEqual(new Map([['with_tags', [env]]]));
        expect(await stores.workflowDefs.tags('without_tags')).toEqual([]);
      });

      it('changes no tags of a workflow name without a definition, and drops them with its last version', async () => {
        expect(await stores.workflowDefs.changeTags('untagged', add(env))).toBeUndefined();
        expect(await stores.workflowDefs.tags('untagged')).toEqual([]);

        await stores.workflowDefs.put(workflowDefOf('dropped', 1), { overwrite: false });
        await stores.workflowDefs.put(workflowDefOf('dropped', 2), { overwrite: false });
        await stores.workflowDefs.changeTags('dropped', add(env));
        await stores.workflowDefs.delete('dropped', 2);
        expect(await stores.workflowDefs.tags('dropped')).toEqual([env]);
        await stores.workflowDefs.delete('dropped', 1);
        expect(await stores.workflowDefs.tags('dropped')).toEqual([]);
        expect(await stores.workflowDefs.allTags()).toEqual(new Map());
        await stores.workflowDefs.put(workflowDefOf('dropped', 1), { overwrite: false });
        expect(await stores.workflowDefs.tags('dropped')).toEqual([]);
      });

      it('loses none of many concurrent changes of one name', async () => {
        await stores.workflowDefs.put(workflowDefOf('busy', 1), { overwrite: false });
        await stores.taskDefs.put(taskDefOf('busy_task'));
        const keys = Array.from({ length: 4 }, (_, i) => `k${i}`);
        await Promise.all(
          keys.map((key) => stores.workflowDefs.changeTags('busy', add({ key, value: key }))),
        );
        await Promise.all(
          keys.map((key) => stores.taskDefs.changeTags('busy_task', add({ key, value: key }))),
        );

        expect((await stores.workflowDefs.tags('busy')).map((t) => t.key).sort()).toEqual(keys);
        expect((await stores.taskDefs.tags('busy_task')).map((t) => t.key).sort()).toEqual(keys);
      });

      it('keeps a task definition its tags through a put, apart from the definition, and drops them with it', async () => {
        const def = taskDefOf('tagged_task');
        await stores.taskDefs.put(def);
        expect(await stores.taskDefs.changeTags('tagged_task', add(env))).toEqual([env]);
        await stores.taskDefs.put(taskDefOf('tagged_task', { retryCount: 9 }));

        expect(await stores.taskDefs.tags('tagged_task')).toEqual([env]);
        expect(await stores.taskDefs.get('tagged_task')).toEqual(taskDefOf('tagged_task', { retryCount: 9 }));
        expect((await stores.taskDefs.getMany(['tagged_task'])).get('tagged_task')).toEqual(
          taskDefOf('tagged_task', { retryCount: 9 }),
        );
        expect(await stores.taskDefs.list()).toEqual([taskDefOf('tagged_task', { retryCount: 9 })]);
        expect(await stores.taskDefs.allTags()).toEqual(new Map([['tagged_task', [env]]]));

        expect(await stores.taskDefs.changeTags('absent_task', add(env))).toBeUndefined();
        expect(await stores.taskDefs.delete('tagged_task')).toBe(true);
        expect(await stores.taskDefs.tags('tagged_task')).toEqual([]);
        await stores.taskDefs.put(def);
        expect(await stores.taskDefs.tags('tagged_task')).toEqual([]);
        expect(await stores.taskDefs.changeTags('tagged_task', () => [])).toEqual([]);
        expect(await stores.taskDefs.allTags()).toEqual(new Map());
      });

      it('keeps the tags of a task and a workflow of the same name apart', async () => {
        await stores.taskDefs.put(taskDefOf('same'));
        await stores.workflowDefs.put(workflowDefOf('same', 1), { overwrite: false });
        await stores.taskDefs.changeTags('same', add(env));
        await stores.workflowDefs.changeTags('same', add(team));

        expect(await stores.taskDefs.tags('same')).toEqual([env]);
        expect(await stores.workflowDefs.tags('same')).toEqual([team]);
      });
    });
  });
}
