/** Task definitions: one row each, filterable by name, linking to the Task Definition form. */
import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client.ts';
import { ErrorMessage } from '../components/error-message.tsx';
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
  const [filter, setFilter] = useState('');
  const wanted = useDeferredValue(filter.trim().toLowerCase());
  const rows = (data ?? [])
    .filter((def) => wanted === '' || def.name.toLowerCase().includes(wanted))
    .sort((a, b) => a.name.localeCompare(b.name));
  const { visible, pager } = usePaged(rows, 'Task definitions');
  return (
    <section>
      <h1>Task definitions</h1>
      <div className="toolbar">
        <NavButton to={paths.newTaskDef}>New task definition</NavButton>
        <label htmlFor="task-filter">Filter by name</label>
        <input id="task-filter" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
        <span className="spacer" />
        {loading && <span aria-busy="true">Loading…</span>}
        {data && <span className="muted">{rows.length} shown</span>}
      </div>
      <ErrorMessage error={error} />
      {data && data.length === 0 && <p className="muted">No task definitions yet.</p>}
      {data && data.length > 0 && rows.length === 0 && (
        <p className="muted">No task definition matches “{filter.trim()}”.</p>
      )}
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
