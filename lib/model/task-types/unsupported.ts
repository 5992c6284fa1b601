/**
 * Conductor system types this service does not carry out (yet). They register as Conductor lets
 * them (the official SDK registers an LLM_CHAT_COMPLETE task just to read it back), with
 * Conductor's registration checks where it has them; a run that reaches one fails that task at
 * once, terminally, naming the type, instead of leaving it in a worker queue no worker serves.
 * Implementing one means giving it its own spec file and an engine module, and removing it here.
 */
import { inputOf, present, type TaskKind, type TaskTypeSpec, templateOf } from './spec.ts';

function unsupported(type: string, kind: TaskKind, validate?: TaskTypeSpec['validate']): TaskTypeSpec {
  return { type, kind, supported: false, ...(validate ? { validate } : {}) };
}

export const UNSUPPORTED_SPECS: readonly TaskTypeSpec[] = [
  unsupported('KAFKA_PUBLISH', 'async', (task, path, issues) => {
    if (!present(inputOf(task).kafka_request) && !present(templateOf(task).kafka_request)) {
      issues.add(
        `${path}inputParameters.kafka_request`,
        `inputParameters.kafka_request is required for taskType: KAFKA_PUBLISH taskName: ${task.name}`,
      );
    }
  }),
  unsupported('WAIT_FOR_WEBHOOK', 'async'),
  unsupported('HTTP_POLL', 'async'),
  unsupported('BUSINESS_RULE', 'async'),
  unsupported('JDBC', 'async'),
  unsupported('GET_DOCUMENT', 'async'),
  unsupported('GET_WORKFLOW', 'async'),
  unsupported('UPDATE_TASK', 'async'),
  unsupported('SQS_PUBLISH', 'async'),
  unsupported('GET_SIGNED_JWT', 'async'),
  unsupported('UPDATE_SECRET', 'async'),
  unsupported('QUERY_PROCESSOR', 'async'),
  unsupported('OPS_GENIE', 'async'),
  // The AI task types of Orkes Conductor (and the official SDK's TaskType enum).
  unsupported('LLM_CHAT_COMPLETE', 'async'),
  unsupported('LLM_TEXT_COMPLETE', 'async'),
  unsupported('LLM_GENERATE_EMBEDDINGS', 'async'),
  unsupported('LLM_INDEX_TEXT', 'async'),
  unsupported('LLM_INDEX_DOCUMENT', 'async'),
  unsupported('LLM_SEARCH_INDEX', 'async'),
  unsupported('LLM_SEARCH_EMBEDDINGS', 'async'),
  unsupported('LLM_STORE_EMBEDDINGS', 'async'),
  unsupported('LLM_GET_EMBEDDINGS', 'async'),
  unsupported('GENERATE_IMAGE', 'async'),
  unsupported('GENERATE_AUDIO', 'async'),
  unsupported('CALL_MCP_TOOL', 'async'),
  unsupported('LIST_MCP_TOOLS', 'async'),
];
