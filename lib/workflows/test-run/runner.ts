/**
 * POST /api/workflow/test (docs/conductor-compat.md §1.6, §2.16): runs a workflow against mocked
 * workers and answers the simulated execution. Conductor starts the test in the real engine under a
 * random domain so that no worker sees it; here it runs in a throwaway engine of its own (the same
 * executor, decider and task types, built by the host over fresh memory stores, a private decision
 * queue and a manual clock), so nothing is persisted in the service's stores, nothing is queued
 * where a worker polls, and the run cannot be found afterwards. Registered workflow and task
 * definitions are read, never written.
 */
import { validateWorkflowDef } from '../../metadata/workflow-def.ts';
import type { ApiWorkflow } from '../../model/api.ts';
import { type Clock, ManualClock } from '../../model/clock.ts';
import type { WorkflowDef } from '../../model/definitions.ts';
import { NotFoundError } from '../../model/errors.ts';
import type { DecisionQueue } from '../../queue/ports.ts';
import type { StartRequest } from '../start.ts';
import { type FindWorkflowDef, withChildDefinitions } from './child-definitions.ts';
import { SimulatedDecisionQueue } from './decision-queue.ts';
import { MockBook } from './mock-book.ts';
import { parseTestRequest } from './request.ts';
import { Simulation, type SimulationEngine } from './simulation.ts';

export interface TestRunDeps {
  /** Reads registered workflow definitions (the test's own, when not inline, and its children's). */
  findWorkflowDef: FindWorkflowDef;
  /** The StartWorkflowRequest parser of POST /api/workflow, so both read the fields alike. */
  parseStart(body: unknown): StartRequest;
  /** Builds a throwaway engine over fresh stores, driven by the given clock and decision queue. */
  simulationEngine(clock: Clock, decisions: DecisionQueue): SimulationEngine;
  /** The host's clock: simulated time starts at its now. */
  clock: Clock;
}

export class WorkflowTestRunner {
  constructor(private readonly deps: TestRunDeps) {}

  /** Runs a WorkflowTestRequest body; answers the run as GET /api/workflow/{id} would show it. */
  async run(body: unknown): Promise<ApiWorkflow> {
    const { start, plan } = parseTestRequest(body, (b) => this.deps.parseStart(b));
    const def = await this.definitionOf(start);
    const tested = await withChildDefinitions(def, plan, this.deps.findWorkflowDef);

    const clock = new ManualClock(this.deps.clock.now());
    const decisions = new SimulatedDecisionQueue(clock);
    const engine = this.deps.simulationEngine(clock, decisions);
    // A registered definition left as it is starts by name, exactly as a real start would.
    const inline = start.workflowDef != null || tested !== def;
    const workflowId = await engine.starter.start({ ...start, workflowDef: inline ? tested : undefined });
    await new Simulation(engine, decisions, clock, this.deps.clock).run(workflowId, new MockBook(plan));
    return engine.reader.get(workflowId, true);
  }

  /** The inline definition (400 listing its problems) or the registered one (404 when none). */
  private async definitionOf(start: StartRequest): Promise<WorkflowDef> {
    if (start.workflowDef != null)
      return validateWorkflowDef(start.workflowDef, { taskDefExists: () => true });
    const found = await this.deps.findWorkflowDef(start.name, start.version);
    if (!found) {
      throw new NotFoundError(
        `No such workflow defined. name=${start.name}, version=${start.version ?? 'latest'}`,
      );
    }
    return found;
  }
}
