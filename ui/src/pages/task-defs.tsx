/** Task definitions: placeholder. */
export default function TaskDefsPage() {
  return (
    <section>
      <h1>Task definitions</h1>
    </section>
  );
}
