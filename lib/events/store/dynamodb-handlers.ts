/**
 * DynamoDB adapter of the event handlers, in their own table (events capability).
 *
 * eventhandlers (on-demand):
 *   handler  pk = "<name>"  sk = "H"   attributes: body (the handler as a JSON string)
 *   - create: PutItem conditional on attribute_not_exists(pk) (409 otherwise).
 *   - update / remove: PutItem / DeleteItem conditional on attribute_exists(pk) (404 otherwise).
 *   - list: Scan filtered on sk = "H" (handlers are few; every incoming event reads them).
 * The table also holds the handlers' executions (event-executions.ts), under "X#" keys.
 */
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure, translate } from '../../store/dynamodb/errors.ts';
import { scanAll } from '../../store/dynamodb/paging.ts';
import type { EventHandler } from '../model.ts';
import type { EventHandlerStore } from '../ports.ts';

const SK = 'H';

export class DynamoEventHandlerStore implements EventHandlerStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  create(handler: EventHandler): Promise<boolean> {
    return this.put(handler, 'attribute_not_exists(pk)');
  }

  update(handler: EventHandler): Promise<boolean> {
    return this.put(handler, 'attribute_exists(pk)');
  }

  async get(name: string): Promise<EventHandler | undefined> {
    const out = await this.client
      .send(new GetCommand({ TableName: this.table, Key: { pk: name, sk: SK }, ConsistentRead: true }))
      .catch((e: unknown) => translate(e, 'event handler get'));
    return out.Item ? (JSON.parse(String(out.Item.body)) as EventHandler) : undefined;
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
    return items
      .map((item) => JSON.parse(String(item.body)) as EventHandler)
      .sort((a, b) => a.name.localeCompare(b.name));
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

  private async put(handler: EventHandler, condition: string): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: { pk: handler.name, sk: SK, body: JSON.stringify(handler) },
          ConditionExpression: condition,
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      translate(error, 'event handler put');
    }
  }
}
