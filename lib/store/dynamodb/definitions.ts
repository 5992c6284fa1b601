/**
 * DynamoDB adapters of the definition ports. Key design: tables.ts. The document client is injected.
 *
 * Tags (DefinitionTags) are a `tags` attribute (the list as JSON text): on the task definition's
 * own item, and for a workflow on an item of their own beside the versions (pk "WF#<name>", sk
 * "TAGS", gsi1pk "WFTAGS"), since every version shares them. A change reads them, then writes
 * conditionally on what it read (`tags = :old`, or their absence), and reads again when another
 * change came first. A task definition's put leaves the attribute alone (an update of the other
 * attributes); its delete takes it along. A workflow's delete removes the tags item once no version
 * is left; a tag change that saw a version just before that delete may still write the item after
 * it (no transaction joins the two), and a later definition of the name then shows those tags.
 */
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { TaskDef, WorkflowDef } from '../../model/definitions.ts';
import { ConflictError, VersionConflictError } from '../../model/errors.ts';
import type { Tag } from '../../model/tags.ts';
import type { ReadOptions, TaskDefStore, WorkflowDefStore } from '../ports.ts';
import { isConditionFailure, translate } from './errors.ts';
import { batchGet, type Item, queryAll } from './paging.ts';

const pad = (version: number): string => String(version).padStart(10, '0');
export const wfKey = (name: string, version: number) => ({ pk: `WF#${name}`, sk: `V#${pad(version)}` });
export const taskKey = (name: string) => ({ pk: `TASK#${name}`, sk: 'TASK' });
/** The item holding a workflow name's tags. */
export const wfTagsKey = (name: string) => ({ pk: `WF#${name}`, sk: 'TAGS' });

/** Tries of a tag change that keeps losing to concurrent ones before it gives up (409, retryable). */
const TAG_CHANGE_ATTEMPTS = 5;

const tagsOfItem = (item: Item | undefined): Tag[] =>
  typeof item?.tags === 'string' ? (JSON.parse(item.tags) as Tag[]) : [];

/** `tags` as it was read: the condition a write of the next tags is made on. */
const unchangedTags = (item: Item | undefined) =>
  typeof item?.tags === 'string'
    ? { condition: '#tags = :old', values: { ':old': item.tags } }
    : { condition: 'attribute_not_exists(#tags)', values: {} };

const lostTagRace = (name: string) =>
  new VersionConflictError(`The tags of ${name} kept changing while they were changed; try again`);

/** A workflow definition's item (gsi1 lists every workflow definition). */
export const workflowDefItem = (def: WorkflowDef) => ({
  ...wfKey(def.name, def.version),
  gsi1pk: 'WF',
  gsi1sk: `${def.name}#${pad(def.version)}`,
  name: def.name,
  version: def.version,
  body: JSON.stringify(def),
});

/** A task definition's item (gsi1 lists every task definition). */
export const taskDefItem = (def: TaskDef) => ({
  ...taskKey(def.name),
  gsi1pk: 'TASK',
  gsi1sk: def.name,
  name: def.name,
  body: JSON.stringify(def),
});

const bodyOf = <T>(item: Record<string, unknown>): T => JSON.parse(String(item.body)) as T;

export class DynamoWorkflowDefStore implements WorkflowDefStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async put(def: WorkflowDef, options: { overwrite: boolean }): Promise<void> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: workflowDefItem(def),
          // Without overwrite, (name, version) must not exist yet: registration never replaces silently.
          ConditionExpression: options.overwrite ? undefined : 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (isConditionFailure(error))
        throw new ConflictError(`Workflow with ${def.name}.${def.version} already exists!`);
      translate(error, 'workflow definition put');
    }
  }

  async get(name: string, version?: number): Promise<WorkflowDef | undefined> {
    const page = await this.client
      .send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression:
            version === undefined ? 'pk = :pk AND begins_with(sk, :v)' : 'pk = :pk AND sk = :sk',
          ExpressionAttributeValues:
            version === undefined
              ? { ':pk': `WF#${name}`, ':v': 'V#' }
              : { ':pk': `WF#${name}`, ':sk': `V#${pad(version)}` },
          ScanIndexForward: false,
          Limit: 1,
          ConsistentRead: true,
        }),
      )
      .catch((e: unknown) => translate(e, 'workflow definition get'));
    const item = page.Items?.[0];
    return item ? bodyOf<WorkflowDef>(item) : undefined;
  }

  async versions(name: string): Promise<WorkflowDef[]> {
    const items = await queryAll(
      this.client,
      {
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :v)',
        ExpressionAttributeValues: { ':pk': `WF#${name}`, ':v': 'V#' },
        ConsistentRead: true,
      },
      'workflow definition versions',
    );
    return items.map((item) => bodyOf<WorkflowDef>(item));
  }

  async list(): Promise<WorkflowDef[]> {
    const items = await queryAll(
      this.client,
      {
        TableName: this.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :kind',
        ExpressionAttributeValues: { ':kind': 'WF' },
      },
      'workflow definition list',
    );
    return items
      .map((item) => bodyOf<WorkflowDef>(item))
      .sort((a, b) => (a.name === b.name ? a.version - b.version : a.name < b.name ? -1 : 1));
  }

  async delete(name: string, version: number): Promise<boolean> {
    const result = await this.client
      .send(new DeleteCommand({ TableName: this.table, Key: wfKey(name, version), ReturnValues: 'ALL_OLD' }))
      .catch((e: unknown) => translate(e, 'workflow definition delete'));
    if (result.Attributes === undefined) return false;
    // The name's tags go with its last version.
    if (!(await this.hasVersion(name))) {
      await this.client
        .send(new DeleteCommand({ TableName: this.table, Key: wfTagsKey(name) }))
        .catch((e: unknown) => translate(e, 'workflow definition tags delete'));
    }
    return true;
  }

  async tags(name: string): Promise<Tag[]> {
    return tagsOfItem(await this.tagsItem(name));
  }

  async allTags(): Promise<Map<string, Tag[]>> {
    const items = await queryAll(
      this.client,
      {
        TableName: this.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :kind',
        ExpressionAttributeValues: { ':kind': 'WFTAGS' },
      },
      'workflow definition tags list',
    );
    return new Map(items.map((item) => [String(item.name), tagsOfItem(item)]));
  }

  async changeTags(name: string, change: (tags: Tag[]) => Tag[]): Promise<Tag[] | undefined> {
    for (let attempt = 0; attempt < TAG_CHANGE_ATTEMPTS; attempt++) {
      if (!(await this.hasVersion(name))) return undefined;
      const item = await this.tagsItem(name);
      const next = change(tagsOfItem(item));
      const { condition, values } = unchangedTags(item);
      const conditional = {
        TableName: this.table,
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#tags': 'tags' },
        ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
      };
      try {
        if (next.length === 0) {
          await this.client.send(new DeleteCommand({ ...conditional, Key: wfTagsKey(name) }));
        } else {
          const item = {
            ...wfTagsKey(name),
            gsi1pk: 'WFTAGS',
            gsi1sk: name,
            name,
            tags: JSON.stringify(next),
          };
          await this.client.send(new PutCommand({ ...conditional, Item: item }));
        }
        return next;
      } catch (error) {
        if (!isConditionFailure(error)) translate(error, 'workflow definition tags change');
      }
    }
    throw lostTagRace(name);
  }

  private async tagsItem(name: string): Promise<Item | undefined> {
    const out = await this.client
      .send(new GetCommand({ TableName: this.table, Key: wfTagsKey(name), ConsistentRead: true }))
      .catch((e: unknown) => translate(e, 'workflow definition tags get'));
    return out.Item;
  }

  private async hasVersion(name: string): Promise<boolean> {
    const page = await this.client
      .send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :v)',
          ExpressionAttributeValues: { ':pk': `WF#${name}`, ':v': 'V#' },
          Limit: 1,
          ConsistentRead: true,
        }),
      )
      .catch((e: unknown) => translate(e, 'workflow definition versions'));
    return (page.Items?.length ?? 0) > 0;
  }
}

export class DynamoTaskDefStore implements TaskDefStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async put(def: TaskDef): Promise<void> {
    // An update of every attribute but `tags`: the definition's tags stay.
    const { pk: _pk, sk: _sk, ...attributes } = taskDefItem(def);
    const names = Object.keys(attributes);
    await this.client
      .send(
        new UpdateCommand({
          TableName: this.table,
          Key: taskKey(def.name),
          UpdateExpression: `SET ${names.map((_, i) => `#a${i} = :a${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#a${i}`, n])),
          ExpressionAttributeValues: Object.fromEntries(
            names.map((n, i) => [`:a${i}`, attributes[n as keyof typeof attributes]]),
          ),
        }),
      )
      .catch((e: unknown) => translate(e, 'task definition put'));
  }

  async tags(name: string): Promise<Tag[]> {
    return tagsOfItem(await this.item(name));
  }

  async allTags(): Promise<Map<string, Tag[]>> {
    const out = new Map<string, Tag[]>();
    for (const item of await this.listItems()) {
      const tags = tagsOfItem(item);
      if (tags.length > 0) out.set(String(item.name), tags);
    }
    return out;
  }

  async changeTags(name: string, change: (tags: Tag[]) => Tag[]): Promise<Tag[] | undefined> {
    for (let attempt = 0; attempt < TAG_CHANGE_ATTEMPTS; attempt++) {
      const item = await this.item(name);
      if (!item) return undefined;
      const next = change(tagsOfItem(item));
      const { condition, values } = unchangedTags(item);
      try {
        await this.client.send(
          new UpdateCommand({
            TableName: this.table,
            Key: taskKey(name),
            UpdateExpression: next.length === 0 ? 'REMOVE #tags' : 'SET #tags = :new',
            ConditionExpression: `attribute_exists(pk) AND ${condition}`,
            ExpressionAttributeNames: { '#tags': 'tags' },
            ...(next.length > 0 || Object.keys(values).length > 0
              ? {
                  ExpressionAttributeValues: {
                    ...values,
                    ...(next.length > 0 ? { ':new': JSON.stringify(next) } : {}),
                  },
                }
              : {}),
          }),
        );
        return next;
      } catch (error) {
        if (!isConditionFailure(error)) translate(error, 'task definition tags change');
      }
    }
    throw lostTagRace(name);
  }

  private async item(name: string): Promise<Item | undefined> {
    const result = await this.client
      .send(new GetCommand({ TableName: this.table, Key: taskKey(name), ConsistentRead: true }))
      .catch((e: unknown) => translate(e, 'task definition get'));
    return result.Item;
  }

  private listItems(): Promise<Item[]> {
    return queryAll(
      this.client,
      {
        TableName: this.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :kind',
        ExpressionAttributeValues: { ':kind': 'TASK' },
      },
      'task definition list',
    );
  }

  async get(name: string): Promise<TaskDef | undefined> {
    const item = await this.item(name);
    return item ? bodyOf<TaskDef>(item) : undefined;
  }

  async getMany(names: readonly string[], options?: ReadOptions): Promise<Map<string, TaskDef>> {
    const unique = [...new Set(names)];
    const read = async (some: string[], consistent: boolean) =>
      (
        await batchGet(this.client, this.table, some.map(taskKey), 'task definition batch get', consistent)
      ).map((item) => bodyOf<TaskDef>(item));
    const found = new Map((await read(unique, options?.fresh !== false)).map((def) => [def.name, def]));
    if (options?.fresh === false) {
      // An eventually consistent read may miss a definition registered moments ago: the names it
      // did not find are read again consistently before they count as missing (ports.ts ReadOptions).
      const missing = unique.filter((name) => !found.has(name));
      if (missing.length > 0) for (const def of await read(missing, true)) found.set(def.name, def);
    }
    return found;
  }

  async list(): Promise<TaskDef[]> {
    const items = await this.listItems();
    return items
      .map((item) => bodyOf<TaskDef>(item))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async delete(name: string): Promise<boolean> {
    const result = await this.client
      .send(new DeleteCommand({ TableName: this.table, Key: taskKey(name), ReturnValues: 'ALL_OLD' }))
      .catch((e: unknown) => translate(e, 'task definition delete'));
    return result.Attributes !== undefined;
  }
}
