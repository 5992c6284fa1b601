/**
 * DynamoDB adapter of the event executions, in the event handlers' table (events capability):
 *
 *   execution  pk = "X#<handler name>"  sk = "E#<execution id>"
 *              body (the EventExecution as JSON), status, created (N), leaseUntil (N), ttl (N, s)
 *   - claim: PutItem conditional on attribute_not_exists(pk) OR (status = IN_PROGRESS AND
 *     leaseUntil < now): of two deliveries of one message one claims, and a claimer that died is
 *     taken over once its lease ran out. On a failed condition the item is read back (consistent).
 *   - finish: PutItem of the final record.
 *   - list: Query pk with begins_with(sk, "E#"), expired items filtered here (DynamoDB deletes by
 *     TTL lazily, dynalite never), sorted by `created` in memory. The id, not the time, orders the
 *     key (a redelivered message must find its record by id alone), and `ttl` bounds how many
 *     records one handler keeps (service.events.execution-ttl-seconds).
 * Handler items (sk "H") share the table; their pk is the bare name, so "X#" keys never meet them
 * in a query on sk "E#".
 */
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure, translate } from '../../store/dynamodb/errors.ts';
import { queryAll } from '../../store/dynamodb/paging.ts';
import type { EventExecution } from '../model.ts';
import type { ClaimOutcome, EventExecutionStore } from '../ports.ts';

const pkOf = (name: string) => `X#${name}`;
const skOf = (id: string) => `E#${id}`;

export class DynamoEventExecutionStore implements EventExecutionStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async claim(
    execution: EventExecution,
    leaseUntil: number,
    expiresAt: number,
    now: number,
  ): Promise<ClaimOutcome> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: this.itemOf(execution, leaseUntil, expiresAt),
          // Absent, expired (TTL not yet applied), or IN_PROGRESS under a lease that ran out.
          ConditionExpression:
            'attribute_not_exists(pk) OR #ttl < :nowSeconds OR (#status = :inProgress AND leaseUntil < :now)',
          ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
          ExpressionAttributeValues: {
            ':inProgress': 'IN_PROGRESS',
            ':now': now,
            ':nowSeconds': Math.floor(now / 1000),
          },
        }),
      );
      return { claimed: true };
    } catch (error) {
      if (!isConditionFailure(error)) translate(error, 'event execution claim');
    }
    const out = await this.client
      .send(
        new GetCommand({
          TableName: this.table,
          Key: { pk: pkOf(execution.name), sk: skOf(execution.id) },
          ConsistentRead: true,
        }),
      )
      .catch((e: unknown) => translate(e, 'event execution get'));
    // Gone in between (a TTL delete): claim again as new.
    if (!out.Item) return this.claim(execution, leaseUntil, expiresAt, now);
    return { claimed: false, existing: JSON.parse(String(out.Item.body)) as EventExecution };
  }

  async finish(execution: EventExecution, expiresAt: number): Promise<void> {
    await this.client
      .send(new PutCommand({ TableName: this.table, Item: this.itemOf(execution, 0, expiresAt) }))
      .catch((e: unknown) => translate(e, 'event execution finish'));
  }

  async list(
    name: string,
    now: number,
    options: { from?: number; limit: number },
  ): Promise<EventExecution[]> {
    const items = await queryAll(
      this.client,
      {
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :e)',
        ExpressionAttributeValues: { ':pk': pkOf(name), ':e': 'E#' },
        ConsistentRead: true,
      },
      'event execution list',
    );
    const nowSeconds = Math.floor(now / 1000);
    return items
      .filter((item) => Number(item.ttl) >= nowSeconds && Number(item.created) >= (options.from ?? 0))
      .map((item) => JSON.parse(String(item.body)) as EventExecution)
      .sort((a, b) => b.created - a.created || a.id.localeCompare(b.id))
      .slice(0, options.limit);
  }

  private itemOf(execution: EventExecution, leaseUntil: number, expiresAt: number) {
    return {
      pk: pkOf(execution.name),
      sk: skOf(execution.id),
      body: JSON.stringify(execution),
      status: execution.status,
      created: execution.created,
      leaseUntil,
      ttl: Math.ceil(expiresAt / 1000),
    };
  }
}
