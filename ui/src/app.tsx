/**
 * The layout (navigation: Definitions (workflows, tasks, event handlers, schemas), Executions,
 * Schedules, then Monitor (event monitor, queue monitor)) and the routes. Every page is a lazily
 * loaded chunk, so the main bundle holds only React, the router and this shell. Executions,
 * Schedules, event handlers and the event monitor own their sub-routes.
 */
import { lazy, Suspense } from 'react';
import { Navigate, NavLink, Route, Routes } from 'react-router';
import { ServiceVersion } from './components/service-version.tsx';

const WorkflowDefsPage = lazy(() => import('./pages/workflow-defs.tsx'));
const WorkflowDefEditorPage = lazy(() => import('./pages/workflow-def-editor.tsx'));
const TaskDefsPage = lazy(() => import('./pages/task-defs.tsx'));
const TaskDefEditorPage = lazy(() => import('./pages/task-def-editor.tsx'));
const SchemasPage = lazy(() => import('./pages/schemas.tsx'));
const SchemaEditorPage = lazy(() => import('./pages/schema-editor.tsx'));
const ExecutionsPages = lazy(() => import('./pages/executions.tsx'));
const SchedulesPages = lazy(() => import('./pages/schedules.tsx'));
const EventHandlersPages = lazy(() => import('./pages/event-handlers.tsx'));
const EventMonitorPage = lazy(() => import('./pages/event-monitor.tsx'));
const QueueMonitorPage = lazy(() => import('./pages/queue-monitor.tsx'));
const NotFoundPage = lazy(() => import('./pages/not-found.tsx'));

const link = ({ isActive }: { isActive: boolean }) => (isActive ? 'nav-link active' : 'nav-link');

export function App() {
  return (
    <div className="layout">
      <nav className="sidebar" aria-label="Main">
        <div className="brand">Conductor</div>
        <div className="nav-group">
          <span className="nav-heading">Definitions</span>
          <NavLink className={link} to="/definitions/workflows">
            Workflows
          </NavLink>
          <NavLink className={link} to="/definitions/tasks">
            Tasks
          </NavLink>
          <NavLink className={link} to="/definitions/event-handlers">
            Event handlers
          </NavLink>
          <NavLink className={link} to="/schemas">
            Schemas
          </NavLink>
        </div>
        <NavLink className={link} to="/executions">
          Executions
        </NavLink>
        <NavLink className={link} to="/schedules">
          Schedules
        </NavLink>
        <div className="nav-group">
          <span className="nav-heading">Monitor</span>
          <NavLink className={link} to="/event-monitor">
            Event monitor
          </NavLink>
          <NavLink className={link} to="/queue-monitor">
            Queue monitor
          </NavLink>
        </div>
        <ServiceVersion />
      </nav>
      <main className="content">
        <Suspense fallback={<p aria-busy="true">Loading…</p>}>
          <Routes>
            <Route path="/" element={<Navigate to="/definitions/workflows" replace />} />
            <Route path="/definitions" element={<Navigate to="/definitions/workflows" replace />} />
            <Route path="/definitions/workflows" element={<WorkflowDefsPage />} />
            <Route path="/definitions/workflows/new" element={<WorkflowDefEditorPage />} />
            <Route path="/definitions/workflows/edit/:name/:version?" element={<WorkflowDefEditorPage />} />
            <Route path="/definitions/tasks" element={<TaskDefsPage />} />
            <Route path="/definitions/tasks/new" element={<TaskDefEditorPage />} />
            <Route path="/definitions/tasks/edit/:name" element={<TaskDefEditorPage />} />
            <Route path="/schemas" element={<SchemasPage />} />
            <Route path="/schemas/new" element={<SchemaEditorPage />} />
            <Route path="/schemas/edit/:name/:version?" element={<SchemaEditorPage />} />
            <Route path="/executions/*" element={<ExecutionsPages />} />
            <Route path="/schedules/*" element={<SchedulesPages />} />
            <Route path="/definitions/event-handlers/*" element={<EventHandlersPages />} />
            <Route path="/event-monitor/*" element={<EventMonitorPage />} />
            <Route path="/queue-monitor" element={<QueueMonitorPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </Suspense>
      </main>
    </div>
  );
}
