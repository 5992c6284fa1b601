/**
 * The JSON editor: CodeMirror 6, bundled (nothing from a CDN) and loaded lazily through
 * `LazyJsonEditor`, so the main bundle does not carry it. Invalid JSON is underlined where it goes
 * wrong (the JSON lint) and marked in the gutter; the page also prints the place in words.
 */
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

export interface JsonEditorProps {
  value: string;
  onChange?: (text: string) => void;
  readOnly?: boolean;
  /** The accessible name of the editing area. */
  label: string;
}

export default function JsonEditor({ value, onChange, readOnly = false, label }: JsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  const initial = useRef(value);

  useEffect(() => {
    if (!host.current) return undefined;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: initial.current,
        extensions: [
          basicSetup,
          json(),
          linter(jsonParseLinter(), { delay: 200 }),
          lintGutter(),
          EditorState.readOnly.of(readOnly),
          EditorView.editable.of(!readOnly),
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current?.(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, [readOnly, label]);

  // A value set from outside (reset, another version, the forms) replaces the text.
  useEffect(() => {
    const editor = view.current;
    if (!editor) {
      initial.current = value;
      return;
    }
    const current = editor.state.doc.toString();
    if (current !== value) editor.dispatch({ changes: { from: 0, to: current.length, insert: value } });
  }, [value]);

  return <div className="json-editor" ref={host} data-testid="json-editor" />;
}
