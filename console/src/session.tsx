import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useMemo, useState } from 'react';
import { api, currentWorkspaceId, setWorkspaceId } from './api';
import { roleAllows } from './roles';
import type { ConsoleSettings, Me, Workspace } from './types';

interface Session {
  me: Me;
  workspace: Workspace;
  settings: ConsoleSettings;
  can: (scope: string) => boolean;
  switchWorkspace: (id: string) => void;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside a signed-in page');
  return s;
}

export const meQuery = { queryKey: ['me'], queryFn: () => api<Me>('/v1/console/me'), retry: false } as const;

export function useSettings() {
  return useQuery({
    queryKey: ['console-settings'],
    queryFn: () => api<ConsoleSettings>('/console/config.json'),
    staleTime: Infinity,
  });
}

/** The signed-in user, the chosen workspace (remembered in this browser) and the role checks. */
export function SessionProvider({
  me,
  settings,
  children,
}: {
  me: Me;
  settings: ConsoleSettings;
  children: React.ReactNode;
}) {
  const client = useQueryClient();
  const [chosen, setChosen] = useState(currentWorkspaceId());
  const workspace = me.workspaces.find((w) => w.id === chosen) ?? me.workspaces[0];
  if (workspace && currentWorkspaceId() !== workspace.id) setWorkspaceId(workspace.id);
  const value = useMemo<Session>(
    () => ({
      me,
      workspace,
      settings,
      can: (scope) => roleAllows(workspace.role, scope),
      switchWorkspace(id) {
        setWorkspaceId(id);
        setChosen(id);
        // everything but the user belongs to the workspace left behind
        client.removeQueries({ predicate: (q) => q.queryKey[0] !== 'me' && q.queryKey[0] !== 'console-settings' });
      },
    }),
    [me, workspace, settings, client],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
