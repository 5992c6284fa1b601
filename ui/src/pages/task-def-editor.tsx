/** Task definition: placeholder. */
export default function TaskDefEditorPage() {
  return (
    <section>
      <h1>Task definition</h1>
    </section>
  );
}
