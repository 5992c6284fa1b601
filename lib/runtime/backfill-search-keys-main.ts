/**
 * `npm run backfill:search-keys`: sets the byStartDay and byCorrelation keys on run items written
 * before those indexes existed (lib/store/dynamodb/backfill-search-keys.ts), on the executions table
 * the configuration names: on AWS, e.g.
 *   SERVICE_DYNAMODB_REGION=eu-west-1 SERVICE_DYNAMODB_TABLES_EXECUTIONS=<ExecutionsTableName output> \
 *     npm run backfill:search-keys
 * (credentials from the usual AWS chain), or any DynamoDB endpoint (service.dynamodb.endpoint).
 * The embedded local store needs none: a local table older than the indexes has none of them, and
 * its reads fall back to scans.
 */
import { loadConfig } from '../config/load.ts';
import { backfillSearchKeysAt } from '../store/dynamodb/backfill-search-keys.ts';
import { EXECUTIONS_TABLE, tableName } from '../store/dynamodb/tables.ts';
import { tableNamesOf } from './store-bundle.ts';

const config = loadConfig({});
const endpoint = config.string('service.dynamodb.endpoint');
const table = tableName(tableNamesOf(config), EXECUTIONS_TABLE);
const result = await backfillSearchKeysAt(
  { region: config.requireString('service.dynamodb.region'), ...(endpoint ? { endpoint } : {}) },
  table,
);
process.stdout.write(`${table}: ${result.found} runs lacked a search key, ${result.updated} updated\n`);
