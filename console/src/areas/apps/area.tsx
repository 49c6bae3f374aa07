import type { ConsoleArea } from '../../areas';

/** Published apps: a public form in front of an agent, its link, usage and custom domains (docs/api/apps.md). */
export const area: ConsoleArea = {
  links: [{ to: '/apps', label: 'Apps', scope: 'apps:manage', order: 160 }],
  routes: [
    { path: 'apps', lazy: () => import('./AppsPage').then((m) => ({ Component: m.AppsPage })) },
    { path: 'apps/:id', lazy: () => import('./AppPage').then((m) => ({ Component: m.AppPage })) },
  ],
};
