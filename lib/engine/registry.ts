/**
 * The task-type registry: every type the engine runs, by name. A name whose spec says this service
 * does not carry it out fails at once (tasks/unsupported.ts); any other unknown name runs as a
 * worker task whose queue is the type name (Conductor's USER_DEFINED).
 */
import { specOf } from '../model/task-types/index.ts';
import type { TaskType } from './task-type.ts';
import { workerTaskType } from './tasks/simple.ts';
import { unsupportedTaskType } from './tasks/unsupported.ts';

export class TaskTypeRegistry {
  private readonly types = new Map<string, TaskType>();
  /** Types answered for names nothing registered, kept: the decider asks several times per pass. */
  private readonly fallbacks = new Map<string, TaskType>();

  register(...types: TaskType[]): this {
    for (const type of types) this.types.set(type.type, type);
    return this;
  }

  get(type: string): TaskType {
    const registered = this.types.get(type);
    if (registered) return registered;
    let fallback = this.fallbacks.get(type);
    if (!fallback) {
      const spec = specOf(type);
      fallback = spec.supported ? workerTaskType(type) : unsupportedTaskType(spec);
      this.fallbacks.set(type, fallback);
    }
    return fallback;
  }

  /** Whether a module was registered for the type (not a worker or unsupported fallback). */
  has(type: string): boolean {
    return this.types.has(type);
  }
}
