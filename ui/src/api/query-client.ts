/** The app's TanStack QueryClient: no retry on 4xx answers, two retries otherwise. Export: `queryClient`. */
import { QueryClient } from '@tanstack/react-query';
import { isClientError } from './api-error';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      retry: (failureCount, error) => !isClientError(error) && failureCount < 2,
      refetchOnWindowFocus: true,
    },
    mutations: { retry: false },
  },
});
