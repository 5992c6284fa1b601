/**
 * The scheduler capability's DynamoDB table as plain data (no AWS SDK here): the CDK stack creates it,
 * grants name it, and the adapter beside it (store/dynamodb*.ts) documents its key design.
 */
import { type TableSpec, TTL_ATTRIBUTE } from '../store/dynamodb/tables.ts';

/** Schedules, their execution records and the scheduler's switch (scheduler capability). */
export const SCHEDULES_TABLE: TableSpec = {
  id: 'schedules',
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [
    { name: 'due', partitionKey: 'dueKey', sortKey: 'dueAt', sortKeyType: 'N' },
    { name: 'list', partitionKey: 'listKey', sortKey: 'listSort' },
  ],
  ttlAttribute: TTL_ATTRIBUTE,
};
