/**
 * A page's action that opens another page (Run Workflow, New schedule...): a real button, so it
 * looks, announces itself and answers Enter and Space as a button does. Moving between pages from
 * the navigation, a table row or a breadcrumb stays a link.
 */
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';

export function NavButton({ to, children }: { to: string; children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <button type="button" className="primary" onClick={() => void navigate(to)}>
      {children}
    </button>
  );
}
