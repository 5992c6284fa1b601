// Lambda entry for the one-minute wake-up sweeper (lib/runtime/aws-consumers.ts).
import { sweeperHandler } from '../lib/runtime/aws.ts';

export const handler = sweeperHandler();
