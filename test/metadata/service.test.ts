/**
 * The definitions service over in-memory stores with a hand-moved clock: audit times, the listing
 * filters, bulk upserts and how user-defined task types are looked up.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { MetadataService } from '../../lib/metadata/service.ts';
import { normalizeTaskDef } from '../../lib/metadata/task-def.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import type { WorkflowDef } from '../../lib/model/definitions.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/model/errors.ts';
import { MemoryTaskDefStore, MemoryWorkflowDefStore } from '../../lib/store/memory/definitions.ts';
import { simpleTask, taskDef, workflowDef } from '../helpers/fixtures.ts';

let clock: ManualClock;
let workflowDefs: MemoryWorkflowDefStore;
let taskDefs: MemoryTaskDefStore;
let service: MetadataService;

beforeEach(() => {
  clock = new ManualClock(Date.UTC(2026, 0, 1));
  workflowDefs = new MemoryWorkflowDefStore();
  taskDefs = new MemoryTaskDefStore();
  service = new MetadataService(workflowDefs, taskDefs, clock);
});

describe('MetadataService workflow definitions', () => {
  it('stamps createTime on registration and ignores a client-sent createTime', async () => {
    const stored = await service.registerWorkflowDef(workflowDef({ name: 'a', createTime: 5 }), false);
    expect(stored.createTime).toBe(clock.now());
    expect(stored.updateTime).toBeUndefined();
  });

  it('answers a conflict for an existing version without overwrite', async () => {
    await service.registerWorkflowDef(workflowDef({ name: 'a' }), false);
    await expect(service.registerWorkflowDef(workflowDef({ name: 'a' }), false)).rejects.toBeInstanceOf(
      ConflictError,
    );
  });

  it('treats overwrite of a new version as a plain registration', async () => {
    const stored = await service.registerWorkflowDef(workflowDef({ name: 'a' }), true);
    expect(stored.createTime).toBe(clock.now());
    expect(stored.updateTime).toBeUndefined();
  });

  it('reports store failures per item in a bulk upsert', async () => {
    const failing = new (class extends MemoryWorkflowDefStore {
      override async put(def: WorkflowDef, options: { overwrite: boolean }): Promise<void> {
        if (def.name === 'broken') throw new Error('store refused broken');
        await super.put(def, options);
      }
    })();
    service = new MetadataService(failing, taskDefs, clock);
    const result = await service.upsertWorkflowDefs([
      workflowDef({ name: 'fine' }),
      workflowDef({ name: 'broken' }),
    ]);
    expect(result).toEqual({
      bulkErrorResults: { broken: 'store refused broken' },
      bulkSuccessfulResults: ['fine'],
    });
    expect(await failing.get('fine')).toBeDefined();
  });

  it('names the missing version in a not-found error', async () => {
    await expect(service.getWorkflowDef('ghost', 3)).rejects.toThrow(
      new NotFoundError('No such workflow found by name: ghost, version: 3'),
    );
  });

  it('combines the listing filters', async () => {
    await service.registerWorkflowDef(workflowDef({ name: 'a', version: 1 }), false);
    await service.registerWorkflowDef(workflowDef({ name: 'a', version: 3 }), false);
    await service.registerWorkflowDef(workflowDef({ name: 'b', metadata: { classifier: 'agent' } }), false);
    await service.registerWorkflowDef(workflowDef({ name: 'c', metadata: { classifier: '' } }), false);

    const pairs = (defs: WorkflowDef[]) => defs.map((d) => `${d.name}:${d.version}`);
    expect(pairs(await service.listWorkflowDefs())).toEqual(['a:1', 'a:3', 'b:1', 'c:1']);
    expect(pairs(await service.listWorkflowDefs({ latestOnly: true }))).toEqual(['a:3', 'b:1', 'c:1']);
    expect(pairs(await service.listWorkflowDefs({ classifier: 'workflow' }))).toEqual(['a:1', 'a:3', 'c:1']);
    expect(pairs(await service.listWorkflowDefs({ classifier: 'agent' }))).toEqual(['b:1']);
    expect(pairs(await service.listWorkflowDefs({ name: 'a', latestOnly: true }))).toEqual(['a:3']);
    const short = await service.listWorkflowDefs({ name: 'a', short: true });
    expect(short.map((d) => d.tasks)).toEqual([[], []]);
    expect((await service.getWorkflowDef('a', 1)).tasks).toHaveLength(1);
  });

  it('moves the latest version back when the latest is deleted', async () => {
    await service.registerWorkflowDef(workflowDef({ name: 'a', version: 1 }), false);
    await service.registerWorkflowDef(workflowDef({ name: 'a', version: 2 }), false);
    await service.deleteWorkflowDef('a', 2);
    expect((await service.getWorkflowDef('a')).version).toBe(1);
    await expect(service.deleteWorkflowDef('a', 2)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('looks up the task definitions of user-defined types once, nested tasks included', async () => {
    const asked: string[][] = [];
    const spying = new (class extends MemoryTaskDefStore {
      override getMany(names: readonly string[]) {
        asked.push([...names].sort());
        return super.getMany(names);
      }
    })();
    service = new MetadataService(workflowDefs, spying, clock);
    await spying.put(normalizeTaskDef({ name: 'outer' }));
    await spying.put(normalizeTaskDef({ name: 'inner' }));
    const custom = (name: string, ref: string) => ({ name, taskReferenceName: ref, type: 'CUSTOM' });
    await service.registerWorkflowDef(
      workflowDef({
        tasks: [
          custom('outer', 'o'),
          {
            name: 'loop',
            taskReferenceName: 'loop',
            type: 'DO_WHILE',
            loopCondition: 'x',
            loopOver: [custom('inner', 'i')],
          },
          simpleTask('plain'),
        ],
      }),
      false,
    );
    expect(asked).toEqual([['inner', 'outer']]);
  });
});

describe('MetadataService task definitions', () => {
  it('stamps createTime on registration, replacing a client-sent one', async () => {
    const [stored] = await service.registerTaskDefs([taskDef({ name: 't', createTime: 1, updateTime: 2 })]);
    expect(stored).toMatchObject({ createTime: clock.now() });
    expect(stored).not.toHaveProperty('updateTime');
  });

  it('keeps createTime and sets updateTime on update', async () => {
    await service.registerTaskDefs([taskDef({ name: 't' })]);
    const created = clock.now();
    clock.advance(60_000);
    const updated = await service.updateTaskDef(taskDef({ name: 't', retryCount: 9 }));
    expect(updated).toMatchObject({ retryCount: 9, createTime: created, updateTime: created + 60_000 });
    expect(await taskDefs.get('t')).toEqual(updated);
  });

  it('refuses to update a definition that does not exist', async () => {
    await expect(service.updateTaskDef(taskDef({ name: 'ghost' }))).rejects.toThrow(
      new NotFoundError('No such taskType found by name: ghost'),
    );
  });

  it('stores nothing when any definition of a list is invalid', async () => {
    await expect(
      service.registerTaskDefs([taskDef({ name: 'ok' }), taskDef({ responseTimeoutSeconds: 0 })]),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(await taskDefs.list()).toEqual([]);
  });
});
