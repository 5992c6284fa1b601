/**
 * The applications store contract against the DynamoDB adapter, over an in-process dynalite started
 * for this file; each test gets its own tables.
 */
import { runOnDynalite } from '../helpers/dynamo.ts';
import { applicationStoreContract } from './applications.contract.ts';

runOnDynalite(applicationStoreContract);
