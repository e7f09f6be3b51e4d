import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-error';

/** Server state lives here only. A refusal (4xx) is not retried; a network failure or a 5xx is, twice. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        retry: (failures, error) => failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
      mutations: { retry: false },
    },
  });
}
