import { adapter, AdapterRegistry, isHttpUrl, textSetting } from '@svc/config';
import { RepositoryInstanceClient } from '@svc/workspace-core';
import { HttpRepositoryInstanceClient, LocalRepositoryInstanceClient } from './repository-instance-clients';

/** What the module hands every RepositoryInstanceClient adapter: this deployment's own repository context. */
export interface RepositoryClientDeps {
  local: LocalRepositoryInstanceClient;
}

/**
 * The RepositoryInstanceClient adapters, one per REPOSITORY_CLIENT value (`ADAPTER_SETTINGS` in @svc/config): how the
 * audit side reads repository instances (docs/architecture.md, "Adding an adapter").
 */
export const REPOSITORY_CLIENTS: AdapterRegistry<'REPOSITORY_CLIENT', RepositoryInstanceClient, RepositoryClientDeps> = {
  setting: 'REPOSITORY_CLIENT',
  adapters: {
    local: adapter({
      summary: "this deployment's repository context, in-process, through its public use cases",
      settings: () => ({}),
      create: (_settings, deps: RepositoryClientDeps) => deps.local,
    }),
    http: adapter({
      summary: "each repository instance's instance API over HTTP, with the sealed link's instance id and key",
      settings: (raw, problems) => {
        const url = textSetting(raw, 'REPOSITORY_API_URL') ?? textSetting(raw, 'PUBLIC_RETRIEVAL_URL');
        if (!url) problems.push('REPOSITORY_API_URL: required when REPOSITORY_CLIENT=http (or PUBLIC_RETRIEVAL_URL)');
        else if (!isHttpUrl(url)) problems.push('REPOSITORY_API_URL: must be an http:// or https:// URL');
        return { baseUrl: url ?? '' };
      },
      create: (settings) => new HttpRepositoryInstanceClient(settings.baseUrl),
    }),
  },
};
