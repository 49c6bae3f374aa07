import type { PricingRule } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api';
import { Empty, ErrorBox, QueryState } from '../../components/States';
import { useAgentNames } from '../../hooks';
import { useSession } from '../../session';
import { AddRule } from './AddRule';
import { price, useApps } from './lookups';

/** A list's rules, highest priority first as a quote weighs them, with a new one and deletion. */
export function Rules({ priceListId }: { priceListId: string }) {
  const { can } = useSession();
  const client = useQueryClient();
  const agentName = useAgentNames();
  const apps = useApps();
  const rules = useQuery({
    queryKey: ['price-lists', priceListId, 'rules'],
    queryFn: () => api<{ rules: PricingRule[] }>(`/v1/price-lists/${priceListId}/rules?limit=100`),
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/v1/pricing-rules/${id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['price-lists', priceListId, 'rules'] }),
  });
  const appName = (id: string) => apps.data?.apps.find((a) => a.id === id)?.name ?? id.slice(0, 8);
  const matchText = (r: PricingRule) =>
    [
      r.match.agentId ? `agent ${agentName(r.match.agentId)}` : null,
      r.match.modelId ? `model ${r.match.modelId}` : null,
      r.match.appId ? `app ${appName(r.match.appId)}` : null,
    ]
      .filter(Boolean)
      .join(', ') || 'every run';
  const writable = can('agents:write');
  return (
    <>
      <h2>Rules</h2>
      {writable ? <AddRule priceListId={priceListId} /> : null}
      <ErrorBox error={remove.error} title="Could not delete the rule" />
      <QueryState query={rules} what="rules">
        {(d) =>
          d.rules.length === 0 ? (
            <Empty>No rules: every quote is the service's cost.</Empty>
          ) : (
            <div className="table-wrap" role="region" aria-label="Rules" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Priority</th>
                    <th scope="col">Matches</th>
                    <th scope="col">Per run</th>
                    <th scope="col">Input per 1M tokens</th>
                    <th scope="col">Output per 1M tokens</th>
                    <th scope="col">Markup</th>
                    {writable ? (
                      <th scope="col">
                        <span className="sr-only">Actions</span>
                      </th>
                    ) : null}
                  </tr>
                </thead>
                <tbody>
                  {[...d.rules]
                    .sort((a, b) => b.priority - a.priority)
                    .map((r) => (
                      <tr key={r.id} data-testid="pricing-rule">
                        <td>{r.priority}</td>
                        <td>{matchText(r)}</td>
                        <td>{price(r.perRunUsd)}</td>
                        <td>{price(r.inputPerMTokUsd)}</td>
                        <td>{price(r.outputPerMTokUsd)}</td>
                        <td>{r.markupPercent === null ? '—' : `${r.markupPercent} %`}</td>
                        {writable ? (
                          <td>
                            <button
                              type="button"
                              className="danger"
                              disabled={remove.isPending}
                              onClick={() => remove.mutate(r.id)}
                            >
                              Delete<span className="sr-only"> the rule of priority {r.priority}</span>
                            </button>
                          </td>
                        ) : null}
                      </tr>
                    ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryState>
    </>
  );
}
