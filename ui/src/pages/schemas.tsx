/**
 * Schemas (docs/api.md "Overview" 9): one row per schema with its name (a link to the
 * editor), type, latest version, version count and creation time; Clone copies the latest version
 * under a new name at version 1, Delete removes every version after confirmation.
 */
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../api/client.ts';
import { schemaExists } from '../api/schemas.ts';
import { useConfirm } from '../components/confirm.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { NavButton } from '../components/nav-button.tsx';
import { usePaged } from '../components/pager.tsx';
import { useLoad } from '../components/use-load.ts';
import { useTitle } from '../components/use-title.ts';
import { schemaRows } from '../logic/schema-rows.ts';
import { formatDateTime } from '../logic/time.ts';
import { paths } from '../paths.ts';

export default function SchemasPage() {
  useTitle('Schemas');
  const loaded = useLoad('schemas', () => api('GET /api/schema'));
  // A failed load shows its error alone, not the rows remembered from an earlier visit.
  const { error, loading, reload } = loaded;
  const data = error ? undefined : loaded.data;
  const [actionError, setActionError] = useState<unknown>();
  const [cloning, setCloning] = useState<string>();
  const [dialog, confirm] = useConfirm();
  const navigate = useNavigate();
  const rows = data ? schemaRows(data) : [];
  const { visible, pager } = usePaged(rows, 'Schemas');

  const remove = async (name: string) => {
    if (!(await confirm(`Delete schema ${name} and all its versions?`, 'Delete'))) return;
    try {
      await api('DELETE /api/schema/{name}', { params: { name } });
      setActionError(undefined);
      await reload();
    } catch (failure) {
      setActionError(failure);
    }
  };

  return (
    <section>
      <h1>Schemas</h1>
      <div className="toolbar">
        <NavButton to={paths.newSchema}>New schema</NavButton>
        <span className="spacer" />
        {loading && <span aria-busy="true">Loading…</span>}
      </div>
      <ErrorMessage error={error ?? actionError} />
      {cloning !== undefined && (
        <CloneForm
          source={cloning}
          onCancel={() => setCloning(undefined)}
          onCloned={(name) => void navigate(paths.schema(name, 1))}
        />
      )}
      {data && rows.length === 0 && <p className="muted">No schemas yet.</p>}
      {rows.length > 0 && (
        <>
          {pager}
          <div className="table-scroll">
            <table aria-label="Schemas">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Type</th>
                  <th>Latest version</th>
                  <th>Versions</th>
                  <th>Created</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {visible.map((row) => (
                  <tr key={row.name}>
                    <td className="wrap">
                      <Link to={paths.schema(row.name)}>{row.name}</Link>
                    </td>
                    <td>{row.type}</td>
                    <td>{row.latestVersion}</td>
                    <td>{row.versionCount}</td>
                    <td className="nowrap">{formatDateTime(row.createTime)}</td>
                    <td className="toolbar">
                      <button
                        type="button"
                        onClick={() => setCloning(row.name)}
                        aria-label={`Clone ${row.name}`}
                      >
                        Clone
                      </button>
                      <button
                        type="button"
                        className="danger"
                        onClick={() => void remove(row.name)}
                        aria-label={`Delete ${row.name}`}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {dialog}
    </section>
  );
}

/** Copies the latest version of `source` under a new name, at version 1; an existing name is refused. */
function CloneForm(props: { source: string; onCancel: () => void; onCloned: (name: string) => void }) {
  const [name, setName] = useState(`${props.source}_copy`);
  const [error, setError] = useState<unknown>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const target = name.trim();
      if (target === '') throw new Error('Give the copy a name');
      if (await schemaExists(target)) throw new Error(`A schema named ${target} already exists`);
      const source = await api('GET /api/schema/{name}', { params: { name: props.source } });
      await api('POST /api/schema', {
        query: { newVersion: false },
        body: {
          name: target,
          version: 1,
          type: source.type,
          data: source.data,
          externalRef: source.externalRef,
        },
      });
      props.onCloned(target);
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <form className="notice" onSubmit={(e) => void submit(e)} aria-label={`Clone ${props.source}`}>
      <div className="picker">
        <label htmlFor="clone-name">Name of the copy of {props.source}</label>
        <input id="clone-name" value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="primary">
          Create copy
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
      <ErrorMessage error={error} />
    </form>
  );
}
