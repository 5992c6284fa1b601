/** The JSON editor behind React.lazy: its chunk (CodeMirror) loads when a page first shows one. */
import { lazy, Suspense } from 'react';
import type { JsonEditorProps } from './json-editor.tsx';

const JsonEditor = lazy(() => import('./json-editor.tsx'));

export function LazyJsonEditor(props: JsonEditorProps) {
  return (
    <Suspense fallback={<p aria-busy="true">Loading the editor…</p>}>
      <JsonEditor {...props} />
    </Suspense>
  );
}
