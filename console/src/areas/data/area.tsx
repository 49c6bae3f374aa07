import type { ConsoleArea } from '../../areas';

export const area: ConsoleArea = {
  links: [
    { to: '/data-sources', label: 'Data sources', scope: 'data_sources:read', order: 130 },
    { to: '/saved-tables', label: 'Saved tables', scope: 'data_sources:read', order: 131 },
  ],
  routes: [
    {
      path: 'data-sources',
      lazy: () => import('./DataSourcesPage').then((m) => ({ Component: m.DataSourcesPage })),
    },
    {
      path: 'data-sources/:id',
      lazy: () => import('./DataSourcePage').then((m) => ({ Component: m.DataSourcePage })),
    },
    {
      path: 'saved-tables',
      lazy: () => import('./SavedTablesPage').then((m) => ({ Component: m.SavedTablesPage })),
    },
    {
      path: 'saved-tables/:id',
      lazy: () => import('./SavedTablePage').then((m) => ({ Component: m.SavedTablePage })),
    },
  ],
};
