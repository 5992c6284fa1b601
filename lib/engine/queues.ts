/** Worker queue names: `[domain:]taskType` (reference/conductor.md §4.1). */
import type { TaskRecord } from '../model/execution.ts';

export function queueName(taskType: string, domain?: string): string {
  return domain ? `${domain}:${taskType}` : taskType;
}

export function queueNameOf(task: Pick<TaskRecord, 'taskType' | 'domain'>): string {
  return queueName(task.taskType, task.domain);
}
