/**
 * Schedules (`/schedules/*`): the list with pause and resume, and the editor with a preview of the
 * next run times (`/schedules/new`, `/schedules/edit/{name}`), each a lazily loaded chunk.
 */
import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import './runs.css';

const SchedulesList = lazy(() => import('./schedules/list.tsx'));
const ScheduleEditor = lazy(() => import('./schedules/editor.tsx'));

export default function SchedulesPages() {
  return (
    <Routes>
      <Route index element={<SchedulesList />} />
      <Route path="new" element={<ScheduleEditor />} />
      <Route path="edit/:name" element={<ScheduleEditor />} />
    </Routes>
  );
}
