/**
 * Event handlers (`/definitions/event-handlers/*`): the list with an Active switch per handler, and
 * the editor (`new`, `edit/{name}`), each a lazily loaded chunk.
 */
import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import './runs.css';

const EventHandlersList = lazy(() => import('./event-handlers/list.tsx'));
const EventHandlerEditor = lazy(() => import('./event-handlers/editor.tsx'));

export default function EventHandlersPages() {
  return (
    <Routes>
      <Route index element={<EventHandlersList />} />
      <Route path="new" element={<EventHandlerEditor />} />
      <Route path="edit/:name" element={<EventHandlerEditor />} />
    </Routes>
  );
}
