/**
 * What a workflow task's inline task definition overrides, in words: runs use it in place of the
 * registered task definition of the task's name, with the policy it states; where that policy
 * differs from the registered one, the differences and a button that copies the registered policy
 * in (schemas kept).
 */
import type { TaskDef } from '../api/routes.ts';
import { describePolicy, policyDifferences, withRegisteredPolicy } from '../logic/inline-task-def.ts';

const shown = (value: unknown) => (value === undefined ? 'unset' : JSON.stringify(value));

export function InlineDefinitionNote(props: {
  inline: TaskDef;
  registered: TaskDef | undefined;
  onChange: (inline: TaskDef) => void;
}) {
  const { inline, registered } = props;
  const differences = registered ? policyDifferences(inline, registered) : [];
  return (
    <div className="notice" role="note" aria-label="Inline task definition">
      {registered ? (
        <p>
          This task carries an inline task definition, which runs use in place of the registered task
          definition <strong>{registered.name}</strong>: {describePolicy(inline)}. Later changes to the
          registered definition do not reach this workflow.
        </p>
      ) : (
        <p>
          This task carries an inline task definition (no task definition named <strong>{inline.name}</strong>{' '}
          is registered): {describePolicy(inline)}.
        </p>
      )}
      {registered && differences.length > 0 && (
        <>
          <p>
            It differs from the registered definition:{' '}
            {differences
              .map((d) => `${d.field}: ${shown(d.inline)} here, ${shown(d.registered)} registered`)
              .join('; ')}
            .
          </p>
          <button type="button" onClick={() => props.onChange(withRegisteredPolicy(inline, registered))}>
            Use the registered policy
          </button>
        </>
      )}
    </div>
  );
}
