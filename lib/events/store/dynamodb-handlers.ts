/**
 * DynamoDB adapter of the event handlers, in their own table (events capability).
 *
 * eventhandlers (on-demand):
 *   handler  pk = "<name>"  sk = "H"   attributes: body (the handler as a JSON string, without its
 *            tags), tags? (its tags as a JSON list)
 *   - create: PutItem conditional on attribute_not_exists(pk) (409 otherwise).
 *   - update: UpdateItem of body (and of tags only when the handler carries them) conditional on
 *     attribute_exists(pk) (404 otherwise); remove: DeleteItem, the same condition.
 *   - tags: read, then UpdateItem conditional on the tags read (`tags = :old`, or their absence),
 *     read again when another change came first. A handler written before tags had an attribute
 *     of their own kept them in its body: they are read from there until the first change.
 *   - list: Scan filtered on sk = "H" (handlers are few; every incoming event reads them).
 * The table also holds the handlers' executions (event-executions.ts), under "X#" keys.
 */
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { VersionConflictError } from '../../model/errors.ts';
import type { Tag } from '../../model/tags.ts';
import { isConditionFailure, translate } from '../../store/dynamodb/errors.ts';
import { type Item, scanAll } from '../../store/dynamodb/paging.ts';
import type { EventHandler } from '../model.ts';
import type { EventHandlerStore } from '../ports.ts';

const SK = 'H';
/** Tries of a tag change that keeps losing to concurrent ones before it gives up (409, retryable). */
const TAG_CHANGE_ATTEMPTS = 5;

/** The handler an item holds, its tags put back. */
function handlerOf(item: Item): EventHandler {
  const handler = JSON.parse(String(item.body)) as EventHandler;
  if (typeof item.tags === 'string') handler.tags = JSON.parse(item.tags) as Tag[];
  return handler;
}

/** A handler's body and tags attribute as stored. */
function split(handler: EventHandler): { body: string; tags?: string } {
  const { tags, ...rest } = handler;
  return { body: JSON.stringify(rest), ...(tags && tags.length > 0 ? { tags: JSON.stringify(tags) } : {}) };
}

export class DynamoEventHandlerStore implements EventHandlerStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(handler: EventHandler): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: { pk: handler.name, sk: SK, ...split(handler) },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      translate(error, 'event handler put');
    }
  }

  async update(handler: EventHandler): Promise<boolean> {
    const { body, tags } = split(handler);
    // Tags the handler carries replace the stored ones (an empty list removes them); none: they stay.
    const setTags =
      handler.tags === undefined ? '' : tags === undefined ? ' REMOVE #tags' : ', #tags = :tags';
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: handler.name, sk: SK },
          UpdateExpression: `SET body = :body${setTags}`,
          ConditionExpression: 'attribute_exists(pk)',
          ...(handler.tags === undefined ? {} : { ExpressionAttributeNames: { '#tags': 'tags' } }),
          ExpressionAttributeValues: { ':body': body, ...(tags === undefined ? {} : { ':tags': tags }) },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      translate(error, 'event handler put');
    }
  }

  async changeTags(name: string, change: (tags: Tag[]) => Tag[]): Promise<Tag[] | undefined> {
    for (let attempt = 0; attempt < TAG_CHANGE_ATTEMPTS; attempt++) {
      const item = await this.item(name);
      if (!item) return undefined;
      const next = change(handlerOf(item).tags ?? []);
      const read =
        typeof item.tags === 'string'
          ? { condition: '#tags = :old', values: { ':old': item.tags } }
          : { condition: 'attribute_not_exists(#tags)', values: {} };
      const values = { ...read.values, ...(next.length > 0 ? { ':new': JSON.stringify(next) } : {}) };
      try {
        await this.client.send(
          new UpdateCommand({
            TableName: this.table,
            Key: { pk: name, sk: SK },
            UpdateExpression: next.length > 0 ? 'SET #tags = :new' : 'REMOVE #tags',
            ConditionExpression: `attribute_exists(pk) AND ${read.condition}`,
            ExpressionAttributeNames: { '#tags': 'tags' },
            ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
          }),
        );
        return next;
      } catch (error) {
        if (!isConditionFailure(error)) translate(error, 'event handler tags change');
      }
    }
    throw new VersionConflictError(`The tags of event handler ${name} kept changing; try again`);
  }

  async get(name: string): Promise<EventHandler | undefined> {
    const item = await this.item(name);
    return item ? handlerOf(item) : undefined;
  }

  async list(): Promise<EventHandler[]> {
    const items = await scanAll(
      this.client,
      {
        TableName: this.table,
        ConsistentRead: true,
        FilterExpression: 'sk = :h',
        ExpressionAttributeValues: { ':h': SK },
      },
      'event handler list',
    );
    return items.map(handlerOf).sort((a, b) => a.name.localeCompare(b.name));
  }

  async remove(name: string): Promise<boolean> {
    try {
      await this.client.send(
        new DeleteCommand({
          TableName: this.table,
          Key: { pk: name, sk: SK },
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      translate(error, 'event handler delete');
    }
  }

  private async item(name: string): Promise<Item | undefined> {
    const out = await this.client
      .send(new GetCommand({ TableName: this.table, Key: { pk: name, sk: SK }, ConsistentRead: true }))
      .catch((e: unknown) => translate(e, 'event handler get'));
    return out.Item;
  }
}
