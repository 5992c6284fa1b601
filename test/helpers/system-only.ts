/**
 * A workflow of system tasks only (INLINE and SET_VARIABLE in turn, each reading the one before),
 * which the decider runs to its end inside one decide: the synchronous execute tests' subject.
 * Its output `n` is the input `n` plus half the task count.
 */
import { type Json, ref, script } from './fixtures.ts';

export function systemOnlyWorkflow(name: string, taskCount = 10): Json {
  const tasks: Json[] = [];
  for (let i = 0; i < taskCount; i++) {
    tasks.push(
      i % 2 === 0
        ? script(`step${i}`, '$.n + 1', {
            n: i === 0 ? ref('workflow.input.n') : ref('workflow.variables.n'),
          })
        : {
            name: `var${i}`,
            taskReferenceName: `var${i}`,
            type: 'SET_VARIABLE',
            inputParameters: { n: ref(`step${i - 1}.output.result`) },
          },
    );
  }
  return { name, version: 1, tasks, outputParameters: { n: ref('workflow.variables.n') } };
}
