/**
 * The task queue and poll data contract against the DynamoDB adapters, talking over HTTP to an
 * in-process, in-memory dynalite started for this file. Each test gets its own tables (unique prefix).
 */
import { runOnDynalite } from '../helpers/dynamo.ts';
import { queueStoreContract } from './queue.contract.ts';

runOnDynalite(queueStoreContract);
