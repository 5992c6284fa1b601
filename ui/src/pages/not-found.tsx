/** Any path the UI does not know. */
import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        Nothing lives here. Go to the <Link to="/definitions/workflows">workflow definitions</Link>.
      </p>
    </section>
  );
}
