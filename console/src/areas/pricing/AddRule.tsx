import type { PricingRule } from '@svc/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api';
import { ErrorBox } from '../../components/States';
import { useAgents } from '../../hooks';
import { useApps, useModels } from './lookups';

const PRICES = [
  { key: 'perRunUsd', label: 'Per run (USD)', max: 1_000_000 },
  { key: 'inputPerMTokUsd', label: 'Per 1M input tokens (USD)', max: 1_000_000 },
  { key: 'outputPerMTokUsd', label: 'Per 1M output tokens (USD)', max: 1_000_000 },
  { key: 'markupPercent', label: "Markup on the service's cost (%)", max: 100_000 },
] as const;
type PriceKey = (typeof PRICES)[number]['key'];

/** A new rule: what it matches (blank matches anything), its prices and markup, its priority. */
export function AddRule({ priceListId }: { priceListId: string }) {
  const client = useQueryClient();
  const agents = useAgents();
  const models = useModels();
  const apps = useApps();
  const [match, setMatch] = useState({ agentId: '', modelId: '', appId: '' });
  const [prices, setPrices] = useState<Record<PriceKey, string>>({
    perRunUsd: '',
    inputPerMTokUsd: '',
    outputPerMTokUsd: '',
    markupPercent: '',
  });
  const [priority, setPriority] = useState('0');
  const add = useMutation({
    mutationFn: () => {
      const set = Object.fromEntries(
        PRICES.filter((p) => prices[p.key].trim() !== '').map((p) => [p.key, Number(prices[p.key])]),
      );
      const matched = Object.fromEntries(Object.entries(match).filter(([, v]) => v !== ''));
      return api<PricingRule>(`/v1/price-lists/${priceListId}/rules`, {
        method: 'POST',
        json: { match: matched, ...set, priority: Number(priority) },
      });
    },
    onSuccess: () => {
      setPrices({ perRunUsd: '', inputPerMTokUsd: '', outputPerMTokUsd: '', markupPercent: '' });
      void client.invalidateQueries({ queryKey: ['price-lists', priceListId, 'rules'] });
    },
  });
  const anyPrice = PRICES.some((p) => prices[p.key].trim() !== '');
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <h3>Add a rule</h3>
      <fieldset>
        <legend>Matches (leave blank to match any)</legend>
        <div className="row">
          <div className="field">
            <label htmlFor="rule-agent">Agent</label>
            <select
              id="rule-agent"
              value={match.agentId}
              onChange={(e) => setMatch({ ...match, agentId: e.target.value })}
            >
              <option value="">Any agent</option>
              {(agents.data?.agents ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="rule-model">Model</label>
            <select
              id="rule-model"
              value={match.modelId}
              onChange={(e) => setMatch({ ...match, modelId: e.target.value })}
            >
              <option value="">Any model</option>
              {(models.data?.models ?? []).map((m) => (
                <option key={m.id} value={m.id}>
                  {m.id}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="rule-app">Published app</label>
            <select id="rule-app" value={match.appId} onChange={(e) => setMatch({ ...match, appId: e.target.value })}>
              <option value="">Any app, or none</option>
              {(apps.data?.apps ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </div>
        </div>
      </fieldset>
      <div className="row">
        {PRICES.map((p) => (
          <div className="field" key={p.key}>
            <label htmlFor={`rule-${p.key}`}>{p.label}</label>
            <input
              id={`rule-${p.key}`}
              type="number"
              min={0}
              max={p.max}
              step="any"
              inputMode="decimal"
              value={prices[p.key]}
              onChange={(e) => setPrices({ ...prices, [p.key]: e.target.value })}
            />
          </div>
        ))}
        <div className="field">
          <label htmlFor="rule-priority">Priority (highest wins)</label>
          <input
            id="rule-priority"
            type="number"
            required
            min={0}
            max={1_000_000}
            step={1}
            inputMode="numeric"
            value={priority}
            onChange={(e) => setPriority(e.target.value)}
          />
        </div>
      </div>
      <ErrorBox error={add.error} title="Could not add the rule" />
      <button className="primary" type="submit" disabled={add.isPending || !anyPrice || priority.trim() === ''}>
        Add the rule
      </button>
    </form>
  );
}
