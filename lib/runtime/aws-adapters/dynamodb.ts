/**
 * DynamoDB on AWS: the client (region and credentials from the Lambda environment, the SDK's
 * chain), the stores of a function's capabilities over the tables the stack names to it (the
 * `dynamodb` adapter, for functions whose capabilities have stores), and the cleaner of expired
 * runs' remover.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AnyCapability } from '../../capabilities.ts';
import type { ServiceConfig } from '../../config/service-config.ts';
import { DynamoExecutionStore } from '../../store/dynamodb/executions.ts';
import { documentClient, dynamoSession } from '../../store/dynamodb/index.ts';
import { EXECUTIONS_TABLE, tableName } from '../../store/dynamodb/tables.ts';
import type { ExpiredRunRemover } from '../../store/ports.ts';
import type { AwsAdapter } from '../aws.ts';
import { dynamoStoresOf, type ServiceStores, tableNamesOf } from '../store-bundle.ts';

/** The DynamoDB client; `service.dynamodb.endpoint` replaces AWS's where set. */
export function dynamoClientFrom(config: ServiceConfig): DynamoDBClient {
  const endpoint = config.string('service.dynamodb.endpoint');
  return new DynamoDBClient(endpoint ? { endpoint } : {});
}

/** The stores of these capabilities over DynamoDB. */
export function awsStoresOf(capabilities: readonly AnyCapability[], config: ServiceConfig): ServiceStores {
  return dynamoStoresOf(capabilities, dynamoSession(dynamoClientFrom(config)), tableNamesOf(config));
}

/** What expired runs leave behind, removed from the executions table (the cleaner of expired runs). */
export function expiredRunRemoverFrom(config: ServiceConfig): ExpiredRunRemover {
  return new DynamoExecutionStore(
    documentClient(dynamoClientFrom(config)),
    tableName(tableNamesOf(config), EXECUTIONS_TABLE),
  );
}

/** The stores of the function's capabilities, over DynamoDB. */
export const dynamodb: AwsAdapter = ({ config, capabilities }) => ({
  stores: awsStoresOf(capabilities, config),
});
