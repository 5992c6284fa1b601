/** Any path the UI does not know. */
import { Link } from 'react-router';
import { useTitle } from '../components/use-title.ts';

export default function NotFoundPage() {
  useTitle('Page not found');
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        Nothing lives here. Go to the <Link to="/definitions/workflows">workflow definitions</Link>.
      </p>
    </section>
  );
}
