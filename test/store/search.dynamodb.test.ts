/** The search reads contract against the DynamoDB adapter, over an in-process dynalite. */
import { runOnDynalite } from '../helpers/dynamo.ts';
import { searchContract } from './search.contract.ts';

runOnDynalite(searchContract);
