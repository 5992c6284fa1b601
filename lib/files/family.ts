/**
 * File authorization by the workflow id in the path (docs/api.md "Authentication" 4): mutations by the
 * exact owner only; metadata and downloads by the owner's family, i.e. itself, its ancestors and
 * its descendants through sub-workflows. A sub-workflow run records its parent (parentWorkflowId),
 * so both directions are one walk up a chain of parent links: the caller is an ancestor when it
 * is on the owner's chain, a descendant when the owner is on the caller's chain.
 */
import { ForbiddenError, quote } from '../model/errors.ts';
import type { RunStore } from '../store/ports.ts';

/** Deepest sub-workflow nesting followed; a longer chain (or a cycle) is not walked further. */
const MAX_DEPTH = 64;

export class FileAccess {
  constructor(private readonly executions: Pick<RunStore, 'getWorkflow'>) {}

  /** Upload, refresh, complete and multipart: the owner itself. */
  requireOwner(caller: string, owner: string, fileId: string): void {
    if (caller !== owner) {
      throw new ForbiddenError(
        `Workflow ${quote(caller)} does not own file ${fileId}; only its owner may change it`,
      );
    }
  }

  /** Metadata and download: the owner, an ancestor or a descendant of it. */
  async requireFamily(caller: string, owner: string, fileId: string): Promise<void> {
    if (caller === owner) return;
    if ((await this.onChainAbove(owner, caller)) || (await this.onChainAbove(caller, owner))) return;
    throw new ForbiddenError(
      `Workflow ${quote(caller)} is not in the workflow family that owns file ${fileId}`,
    );
  }

  /** Whether `target` is a parent, grandparent... of `start`. */
  private async onChainAbove(start: string, target: string): Promise<boolean> {
    const seen = new Set<string>([start]);
    let current = (await this.executions.getWorkflow(start))?.parentWorkflowId;
    while (current !== undefined && !seen.has(current) && seen.size <= MAX_DEPTH) {
      if (current === target) return true;
      seen.add(current);
      current = (await this.executions.getWorkflow(current))?.parentWorkflowId;
    }
    return false;
  }
}
