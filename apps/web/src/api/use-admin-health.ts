import { useQuery } from '@tanstack/react-query';
import { adminHealthApi } from './admin-health-client.ts';
import { exitKeys } from './use-admin-exits.ts';

/** How often the open health view reads again: its connections are a live figure. */
const HEALTH_REFRESH_MS = 10_000;

/** The abuse and health view: the last 24 hours, and this process's open connections. */
export function useFleetHealth() {
  return useQuery({
    queryKey: exitKeys.health,
    queryFn: () => adminHealthApi.get(),
    refetchInterval: HEALTH_REFRESH_MS,
  });
}
