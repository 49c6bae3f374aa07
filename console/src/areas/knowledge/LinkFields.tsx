import { useId } from 'react';
import { useAgents } from '../../hooks';
import { useProjects } from './lookups';

/** The project select and the agent checkboxes of a document: who may search it, which project holds it. */
export function LinkFields({
  projectId,
  agentIds,
  onProject,
  onAgents,
}: {
  projectId: string;
  agentIds: string[];
  onProject: (id: string) => void;
  onAgents: (ids: string[]) => void;
}) {
  const id = useId();
  const agents = useAgents();
  const projects = useProjects();
  const toggle = (a: string) => onAgents(agentIds.includes(a) ? agentIds.filter((x) => x !== a) : [...agentIds, a]);
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-project`}>Project</label>
        <select id={`${id}-project`} value={projectId} onChange={(e) => onProject(e.target.value)}>
          <option value="">No project</option>
          {(projects.data?.projects ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <fieldset>
        <legend>Agents that may search it (knowledge_search)</legend>
        {agents.data?.agents.length === 0 ? <p className="small muted">No agents yet.</p> : null}
        <div className="checks">
          {(agents.data?.agents ?? []).map((a) => (
            <label key={a.id} className="check">
              <input type="checkbox" checked={agentIds.includes(a.id)} onChange={() => toggle(a.id)} /> {a.name}
            </label>
          ))}
        </div>
      </fieldset>
    </>
  );
}
