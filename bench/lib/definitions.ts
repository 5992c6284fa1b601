/**
 * Pieces of the benchmarks' workflow definitions: parameter templates, SIMPLE tasks, and the
 * DO_WHILE loop that bench/do-while.ts (in process) and bench/lib/handoff.ts (over HTTP) both run.
 */

export const OWNER = 'bench@example.com';

/** A `${path}` parameter template. */
export const ref = (path: string): string => `\${${path}}`;

export const simpleTask = (name: string, taskReferenceName: string, inputParameters = {}) => ({
  name,
  taskReferenceName,
  type: 'SIMPLE',
  inputParameters,
});

/**
 * A workflow of one DO_WHILE (`loop`) that runs `loopOver` `workflow.input.iterations` times and
 * outputs the iterations it ran.
 */
export const doWhileWorkflow = (name: string, loopOver: readonly object[]) => ({
  name,
  version: 1,
  schemaVersion: 2,
  ownerEmail: OWNER,
  tasks: [
    {
      name: 'loop',
      taskReferenceName: 'loop',
      type: 'DO_WHILE',
      inputParameters: { iterations: ref('workflow.input.iterations') },
      loopCondition: "if ($.loop['iteration'] < $.iterations) { true; } else { false; }",
      loopOver,
    },
  ],
  outputParameters: { iterations: ref('loop.output.iteration') },
});
