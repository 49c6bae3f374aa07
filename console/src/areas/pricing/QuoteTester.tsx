import type { PricingRule, Quote } from '@svc/client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, qs } from '../../api';
import { QueryState } from '../../components/States';
import { useAgents } from '../../hooks';
import { price } from './lookups';

/** What the list asks for one run of an agent with given token counts, and which rule decided it. */
export function QuoteTester({ priceListId }: { priceListId: string }) {
  const agents = useAgents();
  const client = useQueryClient();
  const [agentId, setAgentId] = useState('');
  const [inputTokens, setInputTokens] = useState('0');
  const [outputTokens, setOutputTokens] = useState('0');
  const [asked, setAsked] = useState<{ agentId: string; inputTokens: string; outputTokens: string } | null>(null);
  const quote = useQuery({
    queryKey: ['price-lists', priceListId, 'quote', asked],
    queryFn: () => api<Quote>(`/v1/price-lists/${priceListId}/quote${qs(asked!)}`),
    enabled: asked !== null,
    staleTime: 0,
  });
  const rules = client.getQueryData<{ rules: PricingRule[] }>(['price-lists', priceListId, 'rules']);
  const chosen = agentId || agents.data?.agents[0]?.id || '';
  return (
    <div className="panel">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setAsked({ agentId: chosen, inputTokens, outputTokens });
          void client.invalidateQueries({ queryKey: ['price-lists', priceListId, 'quote'] });
        }}
      >
        <h2>Quote tester</h2>
        <div className="row">
          <div className="field">
            <label htmlFor="quote-agent">Agent to quote</label>
            <select id="quote-agent" value={chosen} onChange={(e) => setAgentId(e.target.value)}>
              {(agents.data?.agents ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="quote-input">Input tokens</label>
            <input
              id="quote-input"
              type="number"
              min={0}
              max={1_000_000_000}
              step={1}
              inputMode="numeric"
              value={inputTokens}
              onChange={(e) => setInputTokens(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="quote-output">Output tokens</label>
            <input
              id="quote-output"
              type="number"
              min={0}
              max={1_000_000_000}
              step={1}
              inputMode="numeric"
              value={outputTokens}
              onChange={(e) => setOutputTokens(e.target.value)}
            />
          </div>
        </div>
        <button className="primary" type="submit" disabled={!chosen}>
          Get a quote
        </button>
      </form>
      {asked ? (
        <QueryState query={quote} what="the quote">
          {(q) => {
            const rule = rules?.rules.find((r) => r.id === q.ruleId);
            return (
              <p className="notice" role="status" data-testid="quote">
                Price: <strong>{price(q.priceUsd)}</strong>{' '}
                {q.ruleId
                  ? `(the rule of priority ${rule?.priority ?? '?'} decided it)`
                  : "(no rule matched: the service's cost)"}
              </p>
            );
          }}
        </QueryState>
      ) : null}
    </div>
  );
}
