/** Workflow definitions: every stored version, filterable by name, each linking to its editor. */
import { Link } from 'react-router';
import { api } from '../api/client.ts';
import { FilterBox, useFilter } from '../components/filter-box.tsx';
import { ListState } from '../components/list-state.tsx';
import { NavButton } from '../components/nav-button.tsx';
import { usePaged } from '../components/pager.tsx';
import { useLoad } from '../components/use-load.ts';
import { useTitle } from '../components/use-title.ts';
import { formatDateTime } from '../logic/time.ts';
import { paths } from '../paths.ts';

export default function WorkflowDefsPage() {
  useTitle('Workflow definitions');
  const loaded = useLoad('workflow-defs', () =>
    api('GET /api/metadata/workflow', { query: { short: true } }),
  );
  // A failed load shows its error alone, not the rows remembered from an earlier visit.
  const { error, loading } = loaded;
  const data = error ? undefined : loaded.data;
  const filter = useFilter();
  const rows = (data ?? [])
    .filter((def) => filter.matches(def.name))
    .sort((a, b) => a.name.localeCompare(b.name) || b.version - a.version);
  const { visible, pager } = usePaged(rows, 'Workflow definitions');
  return (
    <section>
      <h1>Workflow definitions</h1>
      <div className="toolbar">
        <NavButton to={paths.newWorkflowDef}>New workflow definition</NavButton>
        <FilterBox id="workflow-filter" label="Filter by name" filter={filter} />
        <span className="spacer" />
        {loading && <span aria-busy="true">Loading…</span>}
        {data && <span className="muted">{rows.length} shown</span>}
      </div>
      <ListState error={error} rows={data} empty="No workflow definitions yet." />
      {rows.length > 0 && (
        <>
          {pager}
          <div className="table-scroll">
            <table aria-label="Workflow definitions">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Version</th>
                  <th>Description</th>
                  <th>Updated</th>
                </tr>
              </thead>
              <tbody>
                {visible.map((def) => (
                  <tr key={`${def.name}/${def.version}`}>
                    <td className="wrap">
                      <Link to={paths.workflowDef(def.name, def.version)}>{def.name}</Link>
                    </td>
                    <td>{def.version}</td>
                    <td>{def.description ?? ''}</td>
                    <td className="nowrap">{formatDateTime(def.updateTime ?? def.createTime ?? 0)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
