/**
 * The OpenSearch index the stack names to the functions that search or index (FunctionGrants.search),
 * signed with the function's own role (the SDK's credential chain): the `openSearch` adapter of the
 * functions that search, and the search indexer's port.
 */
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import type { ServiceConfig } from '../../config/service-config.ts';
import { OpenSearchIndex } from '../../search/opensearch/opensearch-index.ts';
import { SignedOpenSearchHttp } from '../../search/opensearch/signed-http.ts';
import type { AwsAdapter } from '../aws.ts';

export function openSearchIndexFrom(config: ServiceConfig): OpenSearchIndex {
  const http = new SignedOpenSearchHttp(
    {
      url: config.requireString('service.search.opensearch.endpoint'),
      region: config.requireString('service.search.opensearch.region'),
      service: config.oneOf('service.search.opensearch.service', ['aoss', 'es'] as const),
    },
    defaultProvider(),
  );
  return new OpenSearchIndex(http, config.requireString('service.search.opensearch.index-prefix'));
}

/** OpenSearch, where it is the search backend (service.search.backend=opensearch). */
export const openSearch: AwsAdapter = ({ config }) =>
  config.oneOf('service.search.backend', SEARCH_BACKENDS) === 'opensearch'
    ? { searchIndex: openSearchIndexFrom(config) }
    : {};

const SEARCH_BACKENDS = ['store', 'opensearch'] as const;
