/**
 * The schema editor (docs/api.md "Overview" 9): a JSON editor on the schema body and a
 * version selector, with Save (overwrites the shown version, after confirmation), Save as new
 * version (the server allocates the number), Delete version, Reset (discard edits, reload) and
 * Download. New schema starts from a template with a `$schema` line; saving registers version 1.
 * AVRO and PROTOBUF schemas open read-only: this server stores them but does not validate them.
 */
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api } from '../api/client.ts';
import type { SchemaRecord } from '../api/routes.ts';
import { schemaExists } from '../api/schemas.ts';
import { useConfirm } from '../components/confirm.tsx';
import { ErrorMessage, Success } from '../components/error-message.tsx';
import { LazyJsonEditor } from '../components/lazy-json-editor.tsx';
import { useLoad } from '../components/use-load.ts';
import { useTitle } from '../components/use-title.ts';
import { parseJsonObject, prettyJson } from '../logic/json-text.ts';
import { downloadName, JSON_SCHEMA_TEMPLATE, versionsOf } from '../logic/schema-rows.ts';
import { paths } from '../paths.ts';

interface Loaded {
  record: SchemaRecord | undefined;
  versions: number[];
}

export default function SchemaEditorPage() {
  const params = useParams();
  const name = params.name;
  const version = params.version === undefined ? undefined : Number(params.version);
  useTitle(
    name === undefined ? 'New schema' : `${name}${version === undefined ? '' : ` v${version}`} – Schema`,
  );
  const loaded = useLoad<Loaded>(`${name}/${version}`, async () => {
    if (name === undefined) return { record: undefined, versions: [] };
    const versions = versionsOf(await api('GET /api/schema', { query: { short: true } }), name);
    const record =
      version === undefined
        ? await api('GET /api/schema/{name}', { params: { name } })
        : await api('GET /api/schema/{name}/{version}', { params: { name, version } });
    return { record, versions };
  });
  if (name !== undefined && !loaded.data) {
    return (
      <section>
        <h1>Schema {name}</h1>
        {loaded.loading ? <p aria-busy="true">Loading…</p> : <ErrorMessage error={loaded.error} />}
      </section>
    );
  }
  const record = loaded.data?.record;
  return (
    <Editor
      key={record ? `${record.name}/${record.version}` : 'new'}
      record={record}
      versions={loaded.data?.versions ?? []}
      reload={loaded.reload}
    />
  );
}

function Editor(props: {
  record: SchemaRecord | undefined;
  versions: number[];
  reload: () => Promise<void>;
}) {
  const { record, versions } = props;
  const navigate = useNavigate();
  const [dialog, confirm] = useConfirm();
  const baseline = prettyJson(record ? (record.data ?? {}) : JSON_SCHEMA_TEMPLATE);
  const [text, setText] = useState(baseline);
  // What the server holds changed (a save, a reset's reload): show it.
  useEffect(() => setText(baseline), [baseline]);
  const [newName, setNewName] = useState('');
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);
  const parsed = parseJsonObject(text);
  const editable = !record || record.type === 'JSON';
  const dirty = text !== baseline;

  const run = async (what: () => Promise<string | undefined>) => {
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      setDone(await what());
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const data = () => {
    if (!parsed.ok) throw new Error(`The schema is not valid JSON: ${parsed.message}`);
    return parsed.value as Record<string, unknown>;
  };
  /** The shown record with the editor's body (version ignored by the server on a new version). */
  const edited = (existing: SchemaRecord) => ({
    name: existing.name,
    version: existing.version,
    type: existing.type,
    data: data(),
    externalRef: existing.externalRef,
  });

  const register = () =>
    run(async () => {
      const name = newName.trim();
      if (name === '') throw new Error('Give the schema a name');
      const body = data();
      if (await schemaExists(name)) throw new Error(`A schema named ${name} already exists`);
      await api('POST /api/schema', {
        query: { newVersion: false },
        body: { name, version: 1, type: 'JSON', data: body },
      });
      void navigate(paths.schema(name, 1));
      return undefined;
    });

  const save = (existing: SchemaRecord) =>
    run(async () => {
      data(); // invalid JSON is refused before the confirmation
      if (!(await confirm(`Overwrite version ${existing.version} of ${existing.name}?`, 'Save')))
        return undefined;
      await api('POST /api/schema', {
        query: { newVersion: false },
        body: edited(existing),
      });
      await props.reload();
      return `Saved version ${existing.version}`;
    });

  const saveAsNew = (existing: SchemaRecord) =>
    run(async () => {
      await api('POST /api/schema', {
        query: { newVersion: true },
        body: edited(existing),
      });
      const latest = await api('GET /api/schema/{name}', { params: { name: existing.name } });
      void navigate(paths.schema(existing.name, latest.version));
      return undefined;
    });

  const deleteVersion = (existing: SchemaRecord) =>
    run(async () => {
      if (!(await confirm(`Delete version ${existing.version} of ${existing.name}?`, 'Delete version')))
        return undefined;
      await api('DELETE /api/schema/{name}/{version}', {
        params: { name: existing.name, version: existing.version },
      });
      const left = versions.filter((v) => v !== existing.version);
      void navigate(left.length > 0 ? paths.schema(existing.name) : paths.schemas);
      return undefined;
    });

  const reset = () =>
    run(async () => {
      setText(baseline);
      await props.reload();
      return 'Local edits discarded';
    });

  const download = (existing: SchemaRecord | undefined) => {
    const blob = new Blob([text], { type: 'application/json' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = downloadName(existing?.name ?? (newName.trim() || 'schema'), existing?.version ?? 1);
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  };

  return (
    <section>
      <h1>{record ? `Schema ${record.name}` : 'New schema'}</h1>
      <div className="form">
        {record ? (
          <>
            <label htmlFor="schema-version">Version</label>
            <select
              id="schema-version"
              value={record.version}
              onChange={(e) => void navigate(paths.schema(record.name, Number(e.target.value)))}
            >
              {versions.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
            <span>Type</span>
            <span>{record.type}</span>
          </>
        ) : (
          <>
            <label htmlFor="schema-name">Name</label>
            <input id="schema-name" value={newName} onChange={(e) => setNewName(e.target.value)} required />
            <span>Type</span>
            <span>JSON</span>
          </>
        )}
      </div>
      {!editable && record && (
        <p className="notice" role="note">
          This is an {record.type} schema. This server stores it but does not validate it, so it is shown
          read-only.
        </p>
      )}
      <div className="toolbar">
        {record ? (
          <>
            <button
              type="button"
              className="primary"
              disabled={!editable || !parsed.ok || busy}
              onClick={() => void save(record)}
            >
              Save
            </button>
            <button
              type="button"
              disabled={!editable || !parsed.ok || busy}
              onClick={() => void saveAsNew(record)}
            >
              Save as new version
            </button>
            <button
              type="button"
              className="danger"
              disabled={busy}
              onClick={() => void deleteVersion(record)}
            >
              Delete version
            </button>
            <button type="button" disabled={busy} onClick={() => void reset()}>
              Reset
            </button>
          </>
        ) : (
          <button
            type="button"
            className="primary"
            disabled={!parsed.ok || busy}
            onClick={() => void register()}
          >
            Save
          </button>
        )}
        <button type="button" onClick={() => download(record)}>
          Download
        </button>
        {dirty && <span className="muted">Unsaved changes</span>}
      </div>
      {!parsed.ok && (
        <p className="error" role="alert">
          Invalid JSON: {parsed.message}
        </p>
      )}
      <ErrorMessage error={error} />
      <Success message={done} />
      <LazyJsonEditor value={text} onChange={setText} readOnly={!editable} label="Schema JSON" />
      {dialog}
    </section>
  );
}
