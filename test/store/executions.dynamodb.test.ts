/**
 * The execution store contract against the DynamoDB adapter, talking over HTTP to an
 * in-process, in-memory dynalite started for this file. Each test gets its own tables (unique prefix).
 */
import { runOnDynalite } from '../helpers/dynamo.ts';
import { executionStoreContract } from './executions.contract.ts';

runOnDynalite(executionStoreContract);
