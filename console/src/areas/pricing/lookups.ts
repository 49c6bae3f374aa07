import type { App } from '@svc/client';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api';

/** The models the service knows, for a rule's match. */
export function useModels() {
  return useQuery({ queryKey: ['models'], queryFn: () => api<{ models: { id: string }[] }>('/v1/models') });
}

/** The workspace's published apps (first 100), for a rule's match. */
export function useApps() {
  return useQuery({
    queryKey: ['apps', 'all'],
    queryFn: () => api<{ apps: App[]; nextCursor: string | null }>('/v1/apps?limit=100'),
  });
}

/** A price as the console shows it: six decimal places at most (amounts are stored in micro-USD). */
export const price = (usd: number | null) =>
  usd === null ? '—' : usd.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 6 });
