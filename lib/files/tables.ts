/**
 * The files capability's DynamoDB table as plain data (no AWS SDK here): the CDK stack creates it,
 * grants name it, and the adapter beside it (store/dynamodb*.ts) documents its key design.
 */
import { type TableSpec, TTL_ATTRIBUTE } from '../store/dynamodb/tables.ts';

export const FILES_TABLE: TableSpec = {
  id: 'filerecords',
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [],
  ttlAttribute: TTL_ATTRIBUTE,
};
