/**
 * The event handlers' properties (lib/events). Declared beside the code that reads them;
 * lib/config/properties.ts gathers every capability's into the one property table.
 */
import { bool, int, type PropertySpec } from '../config/property-spec.ts';

export const EVENTS_PROPERTIES = [
  {
    name: 'service.events.execution-ttl-seconds',
    type: int(60),
    default: 604_800,
    description: 'How long event executions (GET /api/event/execution/{name}) are kept',
  },
  {
    name: 'service.events.aws-sinks.enabled',
    type: bool,
    default: false,
    description:
      'EVENT tasks may publish to sqs:<queue> and eventbridge:<bus> sinks with the AWS SDK default credentials (always on in Lambda)',
  },
] as const satisfies readonly PropertySpec[];
