/**
 * The mocks of one run of a test, consumed as its tasks are answered: `taskRefToMockOutput[ref]`
 * popped in order, so a task that fails and is retried gets the next mock on its retry. A loop
 * iteration (`ref__2`) takes the mocks of its own reference when given, else of its base
 * reference. A sub-workflow's book comes from `subWorkflowTestRequest[ref]`, one per reference:
 * a retried SUB_WORKFLOW task's new child goes on with the same book.
 */
import { baseRef } from '../../model/definition-graph.ts';
import type { TaskMock, TestPlan } from './request.ts';

export class MockBook {
  private readonly mocks: Map<string, TaskMock[]>;
  private readonly children = new Map<string, MockBook>();

  constructor(private readonly plan: TestPlan) {
    // Copies: popping must not consume the parsed request.
    this.mocks = new Map([...plan.mocks].map(([ref, list]) => [ref, [...list]]));
  }

  private listOf(ref: string): TaskMock[] | undefined {
    return this.mocks.get(ref) ?? this.mocks.get(baseRef(ref));
  }

  /** Whether a mock is left for the task with this reference name. */
  has(ref: string): boolean {
    return (this.listOf(ref)?.length ?? 0) > 0;
  }

  /** The next mock of this reference name, removed from the book. */
  take(ref: string): TaskMock | undefined {
    return this.listOf(ref)?.shift();
  }

  /** The book of the sub-workflow run by the task with this reference name (empty without a plan). */
  child(ref: string): MockBook {
    const key = this.plan.children.has(ref) ? ref : baseRef(ref);
    let book = this.children.get(key);
    if (!book) {
      book = new MockBook(this.plan.children.get(key) ?? { mocks: new Map(), children: new Map() });
      this.children.set(key, book);
    }
    return book;
  }
}

/** A book with no mocks: runs the test did not plan for (a failure workflow). */
export const emptyBook = (): MockBook => new MockBook({ mocks: new Map(), children: new Map() });
