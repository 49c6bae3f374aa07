import type { ConsoleArea } from '../../areas';
import { Loading } from '../../components/States';

const Fallback = () => <Loading what="Loading the page" />;

/** Evals, improvement proposals and the agent copilot (docs/console.md#pages). */
export const area: ConsoleArea = {
  links: [
    { to: '/evals', label: 'Evals', scope: 'agents:read', order: 140 },
    { to: '/proposals', label: 'Proposals', scope: 'agents:read', order: 142 },
  ],
  routes: [
    {
      path: 'evals',
      HydrateFallback: Fallback,
      lazy: async () => ({ Component: (await import('./EvalsPage')).EvalsPage }),
    },
    {
      path: 'evals/new',
      HydrateFallback: Fallback,
      lazy: async () => ({ Component: (await import('./NewEvalPage')).NewEvalPage }),
    },
    {
      path: 'evals/:id',
      HydrateFallback: Fallback,
      lazy: async () => ({ Component: (await import('./EvalDetailPage')).EvalDetailPage }),
    },
    {
      path: 'eval-runs/:id',
      HydrateFallback: Fallback,
      lazy: async () => ({ Component: (await import('./EvalRunPage')).EvalRunPage }),
    },
    {
      path: 'proposals',
      HydrateFallback: Fallback,
      lazy: async () => ({ Component: (await import('./ProposalsPage')).ProposalsPage }),
    },
    {
      path: 'agents/:id/copilot',
      HydrateFallback: Fallback,
      lazy: async () => ({ Component: (await import('./CopilotPage')).CopilotPage }),
    },
  ],
};
