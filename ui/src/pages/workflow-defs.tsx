/** Workflow definitions: placeholder. */
export default function WorkflowDefsPage() {
  return (
    <section>
      <h1>Workflow definitions</h1>
    </section>
  );
}
