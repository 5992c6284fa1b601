/**
 * Run Workflow: starts a run of a registered definition (name, optional version, JSON input,
 * correlation id) with `POST /api/workflow`, then opens it. Input that is not a JSON object is
 * refused in the form, with where it is wrong, before anything is sent.
 */
import { type FormEvent, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { ErrorMessage } from '../../components/error-message.tsx';
import { useTitle } from '../../components/use-title.ts';
import { useWorkflowDefs, WorkflowNameOptions } from '../../components/workflow-names.tsx';
import { parseObject } from './json-input.ts';

export default function RunWorkflowForm() {
  useTitle('Run Workflow');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const defs = useWorkflowDefs();
  const [name, setName] = useState(search.get('name') ?? '');
  const [version, setVersion] = useState('');
  const [input, setInput] = useState('{\n  \n}');
  const [correlationId, setCorrelationId] = useState('');
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const parsed = parseObject(input);
  const versions = (defs.data ?? []).filter((d) => d.name === name).map((d) => d.version);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!parsed.ok) return;
    setBusy(true);
    setFailure(undefined);
    try {
      const id = await api('POST /api/workflow', {
        body: {
          name: name.trim(),
          ...(version ? { version: Number(version) } : {}),
          input: parsed.value,
          ...(correlationId.trim() ? { correlationId: correlationId.trim() } : {}),
        },
      });
      void navigate(`/executions/${encodeURIComponent(String(id).trim())}`);
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section>
      <h1>Run Workflow</h1>
      <form className="stacked-form" onSubmit={submit} aria-label="Run Workflow">
        <label>
          Workflow name
          <input list="run-workflow-names" required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <WorkflowNameOptions id="run-workflow-names" defs={defs.data} />
        <label>
          Version
          <select value={version} onChange={(e) => setVersion(e.target.value)}>
            <option value="">Latest</option>
            {versions.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </label>
        <label>
          Input (JSON object)
          <textarea
            rows={10}
            value={input}
            onChange={(e) => setInput(e.target.value)}
            aria-invalid={!parsed.ok}
            aria-describedby="run-input-problem"
            spellCheck={false}
          />
        </label>
        <p
          id="run-input-problem"
          className={parsed.ok ? 'muted' : 'error'}
          role={parsed.ok ? undefined : 'alert'}
        >
          {parsed.ok ? 'The input is valid JSON.' : parsed.problem}
        </p>
        <label>
          Correlation id
          <input value={correlationId} onChange={(e) => setCorrelationId(e.target.value)} />
        </label>
        <ErrorMessage error={failure} />
        <div className="toolbar">
          <button type="submit" className="primary" disabled={busy || !parsed.ok || name.trim() === ''}>
            Run
          </button>
        </div>
      </form>
    </section>
  );
}
