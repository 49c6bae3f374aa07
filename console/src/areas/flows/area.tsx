import type { ConsoleArea } from '../../areas';

/** Flows: the list, a new flow (template or step editor), a flow's trigger and runs, a flow run's timeline. */
export const area: ConsoleArea = {
  links: [{ to: '/flows', label: 'Flows', scope: 'flows:read', order: 100, group: 'Run' }],
  routes: [
    { path: 'flows', lazy: async () => ({ Component: (await import('./FlowsPage')).FlowsPage }) },
    { path: 'flows/new', lazy: async () => ({ Component: (await import('./NewFlowPage')).NewFlowPage }) },
    { path: 'flows/:id', lazy: async () => ({ Component: (await import('./FlowPage')).FlowPage }) },
    { path: 'flow-runs/:id', lazy: async () => ({ Component: (await import('./FlowRunPage')).FlowRunPage }) },
  ],
};
