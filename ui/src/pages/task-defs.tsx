/** Task definitions: one row each, filterable by name, linking to the Task Definition form. */
import { Link } from 'react-router';
import { api } from '../api/client.ts';
import { FilterBox, useFilter } from '../components/filter-box.tsx';
import { ListState } from '../components/list-state.tsx';
import { NavButton } from '../components/nav-button.tsx';
import { usePaged } from '../components/pager.tsx';
import { useLoad } from '../components/use-load.ts';
import { useTitle } from '../components/use-title.ts';
import { paths } from '../paths.ts';

export default function TaskDefsPage() {
  useTitle('Task definitions');
  const loaded = useLoad('task-defs', () => api('GET /api/metadata/taskdefs'));
  // A failed load shows its error alone, not the rows remembered from an earlier visit.
  const { error, loading } = loaded;
  const data = error ? undefined : loaded.data;
  const filter = useFilter();
  const rows = (data ?? [])
    .filter((def) => filter.matches(def.name))
    .sort((a, b) => a.name.localeCompare(b.name));
  const { visible, pager } = usePaged(rows, 'Task definitions');
  return (
    <section>
      <h1>Task definitions</h1>
      <div className="toolbar">
        <NavButton to={paths.newTaskDef}>New task definition</NavButton>
        <FilterBox id="task-filter" label="Filter by name" filter={filter} />
        <span className="spacer" />
        {loading && <span aria-busy="true">Loading…</span>}
        {data && <span className="muted">{rows.length} shown</span>}
      </div>
      <ListState
        error={error}
        rows={data}
        empty="No task definitions yet."
        shown={rows.length}
        noMatch={`No task definition matches “${filter.text.trim()}”.`}
      />
      {rows.length > 0 && (
        <>
          {pager}
          <div className="table-scroll">
            <table aria-label="Task definitions">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Description</th>
                  <th>Retries</th>
                  <th>Timeout (s)</th>
                  <th>Input schema</th>
                  <th>Output schema</th>
                </tr>
              </thead>
              <tbody>
                {visible.map((def) => (
                  <tr key={def.name}>
                    <td className="wrap">
                      <Link to={paths.taskDef(def.name)}>{def.name}</Link>
                    </td>
                    <td>{def.description ?? ''}</td>
                    <td>{def.retryCount}</td>
                    <td>{def.timeoutSeconds}</td>
                    <td className="wrap">{schemaLabel(def.inputSchema)}</td>
                    <td className="wrap">{schemaLabel(def.outputSchema)}</td>
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

function schemaLabel(value: unknown): string {
  if (typeof value !== 'object' || value === null) return '';
  const { name, version } = value as { name?: unknown; version?: unknown };
  return typeof name === 'string' ? `${name}${typeof version === 'number' ? ` v${version}` : ''}` : '';
}
