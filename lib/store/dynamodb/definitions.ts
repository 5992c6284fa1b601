/**
 * DynamoDB adapters of the definition ports. Key design: tables.ts. The document client is injected.
 */
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import type { TaskDef, WorkflowDef } from '../../model/definitions.ts';
import { ConflictError } from '../../model/errors.ts';
import type { TaskDefStore, WorkflowDefStore } from '../ports.ts';
import { isConditionFailure, translate } from './errors.ts';
import { batchGet, queryAll } from './paging.ts';

const pad = (version: number): string => String(version).padStart(10, '0');
export const wfKey = (name: string, version: number) => ({ pk: `WF#${name}`, sk: `V#${pad(version)}` });
export const taskKey = (name: string) => ({ pk: `TASK#${name}`, sk: 'TASK' });

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
          KeyConditionExpression: version === undefined ? 'pk = :pk' : 'pk = :pk AND sk = :sk',
          ExpressionAttributeValues:
            version === undefined
              ? { ':pk': `WF#${name}` }
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
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `WF#${name}` },
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
    return result.Attributes !== undefined;
  }
}

export class DynamoTaskDefStore implements TaskDefStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async put(def: TaskDef): Promise<void> {
    await this.client
      .send(
        new PutCommand({
          TableName: this.table,
          Item: taskDefItem(def),
        }),
      )
      .catch((e: unknown) => translate(e, 'task definition put'));
  }

  async get(name: string): Promise<TaskDef | undefined> {
    const result = await this.client
      .send(new GetCommand({ TableName: this.table, Key: taskKey(name), ConsistentRead: true }))
      .catch((e: unknown) => translate(e, 'task definition get'));
    return result.Item ? bodyOf<TaskDef>(result.Item) : undefined;
  }

  async getMany(names: readonly string[]): Promise<Map<string, TaskDef>> {
    const keys = [...new Set(names)].map(taskKey);
    const items = await batchGet(this.client, this.table, keys, 'task definition batch get');
    return new Map(items.map((item) => bodyOf<TaskDef>(item)).map((def) => [def.name, def]));
  }

  async list(): Promise<TaskDef[]> {
    const items = await queryAll(
      this.client,
      {
        TableName: this.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :kind',
        ExpressionAttributeValues: { ':kind': 'TASK' },
      },
      'task definition list',
    );
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
