import type { ConsoleArea } from '../../areas';
import { Loading } from '../../components/States';

const Fallback = () => <Loading what="Loading the page" />;

/** Price lists, their rules and quotes (docs/console.md#pages). */
export const area: ConsoleArea = {
  links: [{ to: '/price-lists', label: 'Price lists', scope: 'agents:read', order: 148 }],
  routes: [
    {
      path: 'price-lists',
      HydrateFallback: Fallback,
      lazy: async () => ({ Component: (await import('./PriceListsPage')).PriceListsPage }),
    },
    {
      path: 'price-lists/:id',
      HydrateFallback: Fallback,
      lazy: async () => ({ Component: (await import('./PriceListPage')).PriceListPage }),
    },
  ],
};
