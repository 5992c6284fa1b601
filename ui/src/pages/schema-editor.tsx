/** Schema: placeholder. */
export default function SchemaEditorPage() {
  return (
    <section>
      <h1>Schema</h1>
    </section>
  );
}
