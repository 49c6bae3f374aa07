import type { Project } from '@svc/client';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api';

/** The workspace's projects (first 100), for the project pickers and names of this area. */
export function useProjects() {
  return useQuery({
    queryKey: ['projects', 'all'],
    queryFn: () => api<{ projects: Project[]; nextCursor: string | null }>('/v1/projects?limit=100'),
  });
}
