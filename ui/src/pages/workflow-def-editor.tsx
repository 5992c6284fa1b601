/** Workflow definition: placeholder. */
export default function WorkflowDefEditorPage() {
  return (
    <section>
      <h1>Workflow definition</h1>
    </section>
  );
}
