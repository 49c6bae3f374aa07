import type { ConsoleArea } from '../../areas';

// Each page is its own chunk: the summary's chart library is loaded only on the summary.
export const area: ConsoleArea = {
  links: [{ to: '/finance', label: 'Finance', scope: 'finance:read', order: 120 }],
  routes: [
    { path: 'finance', lazy: () => import('./SummaryPage').then((m) => ({ Component: m.SummaryPage })) },
    {
      path: 'finance/transactions',
      lazy: () => import('./TransactionsPage').then((m) => ({ Component: m.TransactionsPage })),
    },
    { path: 'finance/import', lazy: () => import('./ImportPage').then((m) => ({ Component: m.ImportPage })) },
    { path: 'finance/rules', lazy: () => import('./RulesPage').then((m) => ({ Component: m.RulesPage })) },
    { path: 'finance/reports', lazy: () => import('./ReportsPage').then((m) => ({ Component: m.ReportsPage })) },
  ],
};
