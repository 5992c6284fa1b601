/** The event handler store contract against the DynamoDB adapter (dynalite in process). */
import { runOnDynalite } from '../helpers/dynamo.ts';
import { eventHandlerStoreContract } from './event-handlers.contract.ts';

runOnDynalite(eventHandlerStoreContract);
