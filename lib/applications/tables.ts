/**
 * The applications capability's DynamoDB table as plain data (no AWS SDK here): the CDK stack
 * creates it, grants name it (every route group function reads it when the API requires tokens),
 * and the adapter beside it (store/dynamodb.ts) documents its key design.
 */
import { type TableSpec, TTL_ATTRIBUTE } from '../store/dynamodb/tables.ts';

export const APPLICATIONS_TABLE: TableSpec = {
  id: 'applications',
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [],
  ttlAttribute: TTL_ATTRIBUTE,
};
