import type { ConsoleArea } from '../../areas';
import { Loading } from '../../components/States';

const Fallback = () => <Loading what="Loading the page" />;

/** Projects and their members (docs/console.md#pages). */
export const area: ConsoleArea = {
  links: [{ to: '/projects', label: 'Projects', scope: 'agents:read', order: 146 }],
  routes: [
    {
      path: 'projects',
      HydrateFallback: Fallback,
      lazy: async () => ({ Component: (await import('./ProjectsPage')).ProjectsPage }),
    },
    {
      path: 'projects/:id',
      HydrateFallback: Fallback,
      lazy: async () => ({ Component: (await import('./ProjectPage')).ProjectPage }),
    },
  ],
};
