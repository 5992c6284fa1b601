/** The scheduler store contract against the DynamoDB adapter, over an in-process dynalite. */
import { runOnDynalite } from '../helpers/dynamo.ts';
import { scheduleStoreContract } from './schedules.contract.ts';

runOnDynalite(scheduleStoreContract);
