/** Executions: placeholder until the executions pages land (they own `/executions/*`). */
export default function ExecutionsPages() {
  return (
    <section>
      <h1>Executions</h1>
      <p>This page is not built yet.</p>
    </section>
  );
}
