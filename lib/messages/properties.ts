/**
 * The workflow message queue's properties (lib/messages). Declared beside the code that reads them;
 * lib/config/properties.ts gathers every capability's into the one property table.
 */
import { bool, int, type PropertySpec } from '../config/property-spec.ts';

/** The property that switches the workflow message queue on. */
export const MESSAGE_QUEUE_GATE = { messageQueue: 'service.workflow-message-queue.enabled' } as const;

export const MESSAGE_QUEUE_PROPERTIES = [
  {
    name: MESSAGE_QUEUE_GATE.messageQueue,
    type: bool,
    default: false,
    description: 'Workflow message queue route and task',
  },
  {
    name: 'service.workflow-message-queue.maxQueueSize',
    type: int(1),
    default: 1000,
    description: 'Messages queued per workflow',
  },
  {
    name: 'service.workflow-message-queue.ttlSeconds',
    type: int(1),
    default: 86_400,
    description: 'Message TTL in seconds',
  },
  {
    name: 'service.workflow-message-queue.maxBatchSize',
    type: int(1),
    default: 100,
    description: 'Messages per PULL_WORKFLOW_MESSAGES',
  },
] as const satisfies readonly PropertySpec[];
