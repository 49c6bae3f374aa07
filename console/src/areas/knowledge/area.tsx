import type { ConsoleArea } from '../../areas';
import { Loading } from '../../components/States';

const Fallback = () => <Loading what="Loading the page" />;

/** Knowledge documents and their search (docs/console.md#pages). */
export const area: ConsoleArea = {
  links: [{ to: '/knowledge', label: 'Knowledge', scope: 'agents:read', order: 144 }],
  routes: [
    {
      path: 'knowledge',
      HydrateFallback: Fallback,
      lazy: async () => ({ Component: (await import('./KnowledgePage')).KnowledgePage }),
    },
    {
      path: 'knowledge/:id',
      HydrateFallback: Fallback,
      lazy: async () => ({ Component: (await import('./DocumentPage')).DocumentPage }),
    },
  ],
};
