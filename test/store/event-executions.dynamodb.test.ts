/** The event execution store contract against the DynamoDB adapter (dynalite in process). */
import { runOnDynalite } from '../helpers/dynamo.ts';
import { eventExecutionStoreContract } from './event-executions.contract.ts';

runOnDynalite(eventExecutionStoreContract);
