import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import type { Agent } from './types';

/** The workspace's agents (first 100), for names and pickers. */
export function useAgents() {
  return useQuery({
    queryKey: ['agents'],
    queryFn: () => api<{ agents: Agent[]; nextCursor: string | null }>('/v1/agents?limit=100'),
  });
}

export function useAgentNames(): (id: string) => string {
  const agents = useAgents();
  return (id) => agents.data?.agents.find((a) => a.id === id)?.name ?? id.slice(0, 8);
}

/**
 * How often live lists are polled, in ms. A console user has SVC_SESSION_RATE_PER_MIN (120) requests a
 * minute across all their tabs: the inbox (3 lists) takes 36 of them, a run's page 24 (its event stream
 * does the live part), the runs list 12. Tabs in the background do not poll.
 */
export const POLL_MS = 5000;
/** A run's page polls only as a fallback: its event stream brings every change at once. */
export const RUN_POLL_MS = 5000;
