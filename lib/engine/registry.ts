/**
 * The task-type registry: every type the engine runs, by name. Unknown type strings run as worker
 * tasks whose queue is the type name (Conductor's USER_DEFINED).
 */
import type { TaskType } from './task-type.ts';
import { workerTaskType } from './tasks/simple.ts';

export class TaskTypeRegistry {
  private readonly types = new Map<string, TaskType>();

  register(...types: TaskType[]): this {
    for (const type of types) this.types.set(type.type, type);
    return this;
  }

  get(type: string): TaskType {
    return this.types.get(type) ?? workerTaskType(type);
  }

  has(type: string): boolean {
    return this.types.has(type);
  }
}
