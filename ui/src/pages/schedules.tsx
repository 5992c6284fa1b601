/**
 * Schedules (`/schedules/*`): the list with pause and resume, the editor with a preview of the
 * next run times (`/schedules/new`, `/schedules/edit/{name}`) and the execution history
 * (`/schedules/executions`), each a lazily loaded chunk.
 */
import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import './runs.css';

const SchedulesList = lazy(() => import('./schedules/list.tsx'));
const ScheduleEditor = lazy(() => import('./schedules/editor.tsx'));
const ScheduleExecutions = lazy(() => import('./schedules/executions.tsx'));

export default function SchedulesPages() {
  return (
    <Routes>
      <Route index element={<SchedulesList />} />
      <Route path="new" element={<ScheduleEditor />} />
      <Route path="edit/:name" element={<ScheduleEditor />} />
      <Route path="executions" element={<ScheduleExecutions />} />
    </Routes>
  );
}
