/**
 * The messages capability's DynamoDB table as plain data (no AWS SDK here): the CDK stack creates it,
 * grants name it, and the adapter beside it (store/dynamodb*.ts) documents its key design.
 */
import { type TableSpec, TTL_ATTRIBUTE } from '../store/dynamodb/tables.ts';

export const MESSAGES_TABLE: TableSpec = {
  id: 'messages',
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [],
  ttlAttribute: TTL_ATTRIBUTE,
};
