/**
 * The executions list: filters by workflow type, status, start-time range, correlation id and free
 * text, newest first, 25 a page, through `GET /api/workflow/search`. The filters are the page URL,
 * so the browser's back button and a reload keep them.
 */
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { ErrorMessage } from '../../components/error-message.tsx';
import { useLoad } from '../../components/use-load.ts';
import { useWorkflowDefs, WorkflowNameOptions } from '../../components/workflow-names.tsx';
import { formatDateTime } from '../../logic/time.ts';
import {
  type ExecutionFilters,
  filtersFromUrl,
  PAGE_SIZE,
  searchParamsOf,
  urlOfFilters,
  WORKFLOW_STATUSES,
} from './search-query.ts';

export default function ExecutionsList() {
  const [search, setSearch] = useSearchParams();
  const applied = filtersFromUrl(search);
  const [draft, setDraft] = useState<ExecutionFilters>(applied);
  const found = useLoad(search.toString(), () =>
    api('GET /api/workflow/search', { query: searchParamsOf(applied) }),
  );
  const names = useWorkflowDefs();

  const apply = (filters: ExecutionFilters) => {
    setDraft(filters);
    setSearch(urlOfFilters(filters));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply({ ...draft, start: 0 });
  };
  const field = (key: keyof ExecutionFilters) => ({
    value: String(draft[key]),
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [key]: event.target.value }),
  });
  const total = found.data?.totalHits ?? 0;
  const shownTo = Math.min(applied.start + PAGE_SIZE, total);

  return (
    <section>
      <div className="toolbar">
        <h1>Executions</h1>
        <span className="spacer" />
        <Link className="button primary" to="/executions/run">
          Run Workflow
        </Link>
      </div>
      <form className="filters" onSubmit={submit} aria-label="Search executions">
        <label>
          Workflow type
          <input list="workflow-names" {...field('workflowType')} />
        </label>
        <WorkflowNameOptions id="workflow-names" defs={names.data} />
        <label>
          Status
          <select {...field('status')}>
            <option value="">Any</option>
            {WORKFLOW_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Started from
          <input type="datetime-local" {...field('from')} />
        </label>
        <label>
          Started until
          <input type="datetime-local" {...field('to')} />
        </label>
        <label>
          Correlation id
          <input {...field('correlationId')} />
        </label>
        <label>
          Free text
          <input placeholder="*" {...field('freeText')} />
        </label>
        <div className="filter-actions">
          <button type="submit" className="primary">
            Search
          </button>
          <button type="button" onClick={() => apply({ ...filtersFromUrl(new URLSearchParams()) })}>
            Clear
          </button>
        </div>
      </form>
      <ErrorMessage error={found.error} />
      {found.loading && !found.data ? <p aria-busy="true">Loading…</p> : null}
      {found.data && (
        <>
          <p className="muted" aria-live="polite">
            {total === 0 ? 'No executions match.' : `Showing ${applied.start + 1}–${shownTo} of ${total}`}
          </p>
          <table aria-label="Executions">
            <thead>
              <tr>
                <th>Workflow id</th>
                <th>Workflow</th>
                <th>Version</th>
                <th>Status</th>
                <th>Started</th>
                <th>Ended</th>
                <th>Correlation id</th>
              </tr>
            </thead>
            <tbody>
              {found.data.results.map((run) => (
                <tr key={run.workflowId}>
                  <td>
                    <Link to={`/executions/${encodeURIComponent(run.workflowId)}`}>{run.workflowId}</Link>
                  </td>
                  <td>{run.workflowType}</td>
                  <td>{run.version}</td>
                  <td>
                    <span className={`status status-${run.status}`}>{run.status}</span>
                  </td>
                  <td>{formatDateTime(run.startTime)}</td>
                  <td>{formatDateTime(run.endTime)}</td>
                  <td>{run.correlationId ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="toolbar">
            <button
              type="button"
              disabled={applied.start === 0}
              onClick={() => apply({ ...applied, start: Math.max(0, applied.start - PAGE_SIZE) })}
            >
              Previous page
            </button>
            <button
              type="button"
              disabled={applied.start + PAGE_SIZE >= total}
              onClick={() => apply({ ...applied, start: applied.start + PAGE_SIZE })}
            >
              Next page
            </button>
          </div>
        </>
      )}
    </section>
  );
}
