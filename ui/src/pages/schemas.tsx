/** Schemas: placeholder. */
export default function SchemasPage() {
  return (
    <section>
      <h1>Schemas</h1>
    </section>
  );
}
