/**
 * What the synchronous task routes need besides the task service: reading a run back and waiting
 * for its next decide. The engine provides both.
 */
import type { PayloadLocations } from '../../payloads/locations.ts';
import type { WorkflowReader } from '../../workflows/service.ts';
import type { TaskService } from '../service.ts';

export interface TaskRouteDeps {
  tasks: TaskService;
  reader: WorkflowReader;
  /** Waits until the run's record moves past `rev` (a decide committed) or the time is up. */
  waitForProgress(workflowId: string, rev: number, timeoutMs: number): Promise<void>;
  /** Large payload locations (externalstoragelocation). */
  payloads: PayloadLocations;
}
