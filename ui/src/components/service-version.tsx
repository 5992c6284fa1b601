/** The service version (GET /api/version, plain text) in the sidebar footer. */
import { useEffect, useState } from 'react';
import { api } from '../api/client.ts';

export function ServiceVersion() {
  const [version, setVersion] = useState<string>();
  useEffect(() => {
    api('GET /api/version').then(setVersion, () => setVersion(undefined));
  }, []);
  return <div className="version">{version ? `Service ${version}` : ''}</div>;
}
