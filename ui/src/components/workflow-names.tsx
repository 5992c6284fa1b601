/**
 * The registered workflow definitions (`GET /api/metadata/workflow?short=true`, name and version
 * only) and a `<datalist>` of their names, which a workflow-name input names in its `list`.
 */
import { api } from '../api/client.ts';
import { useLoad } from './use-load.ts';

export function useWorkflowDefs() {
  return useLoad('workflow-defs', () => api('GET /api/metadata/workflow', { query: { short: true } }));
}

export function WorkflowNameOptions({
  id,
  defs,
}: {
  id: string;
  defs: readonly { name: string }[] | undefined;
}) {
  return (
    <datalist id={id}>
      {[...new Set((defs ?? []).map((d) => d.name))].map((name) => (
        <option key={name} value={name} />
      ))}
    </datalist>
  );
}
