import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-error';

/** How long data stays fresh, by kind (social-app's STALE constants). */
export const STALE = {
  seconds: (n: number) => n * 1000,
  minutes: (n: number) => n * 60_000,
  infinity: Number.POSITIVE_INFINITY,
} as const;

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: STALE.seconds(30),
      refetchOnWindowFocus: false,
      // Client errors will not get better by asking again.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    },
  },
});
