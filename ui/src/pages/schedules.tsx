/** Schedules: placeholder until the schedules pages land (they own `/schedules/*`). */
export default function SchedulesPages() {
  return (
    <section>
      <h1>Schedules</h1>
      <p>This page is not built yet.</p>
    </section>
  );
}
