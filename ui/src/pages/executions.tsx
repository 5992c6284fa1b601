/**
 * Executions (`/executions/*`): the searchable list, the Run Workflow form (`/executions/run`) and
 * one execution (`/executions/{workflowId}`), each a lazily loaded chunk.
 */
import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import './runs.css';

const ExecutionsList = lazy(() => import('./executions/list.tsx'));
const RunWorkflowForm = lazy(() => import('./executions/run-form.tsx'));
const ExecutionView = lazy(() => import('./executions/view.tsx'));

export default function ExecutionsPages() {
  return (
    <Routes>
      <Route index element={<ExecutionsList />} />
      <Route path="run" element={<RunWorkflowForm />} />
      <Route path=":workflowId" element={<ExecutionView />} />
    </Routes>
  );
}
