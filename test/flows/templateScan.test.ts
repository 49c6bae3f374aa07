import { RE2JS } from 're2js';
import { collectReferences, render, TemplateError, type TemplateScope } from '../../domain/flows/templates';

// The scan that finds `{{ … }}` in flow step strings (docs/api/flows.md#templates): it runs on every saved
// definition and on every step the worker renders, so a hostile string must cost no more than its length,
// and it must find exactly what the placeholder grammar says.
describe('flow template scanning', () => {
  const scope: TemplateScope = { trigger: { a: 'x', n: 2, o: { k: 1 } }, steps: { s: { output: { v: 'y' } } } };

  // The grammar as a regular expression, run on RE2 (linear whatever the input) as the reference to compare with.
  const GRAMMAR = RE2JS.compile('\\{\\{\\s*([^{}]*?)\\s*\\}\\}');
  const byGrammar = (text: string): string[] => {
    const refs: string[] = [];
    const m = GRAMMAR.matcher(text);
    while (m.find()) refs.push(m.group(1) ?? '');
    return refs;
  };

  const HOSTILE: Array<[string, string]> = [
    ['one unclosed {{ and 100 KB of spaces', '{{' + ' '.repeat(100_000)],
    ['many unclosed {{', '{{'.repeat(50_000)],
    ['{{ a then 100 KB of spaces', '{{ a' + ' '.repeat(100_000)],
    ['{{ a repeated', '{{ a '.repeat(20_000)],
    ['spaces between braces that never close', ('{{' + ' '.repeat(1_000) + '}').repeat(100)],
    ['{ and } alternating', '{}'.repeat(50_000)],
  ];

  it.each(HOSTILE)('scans %s in well under 100 ms', (_name, text) => {
    // the best of three, so that a busy test machine's scheduling is not mistaken for the scan's cost
    const times: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const started = performance.now();
      expect(collectReferences(text, '$')).toEqual([]);
      expect(render(text, scope)).toBe(text);
      times.push(performance.now() - started);
    }
    expect(Math.min(...times)).toBeLessThan(100);
  });

  it('finds the same references as the placeholder grammar on random strings', () => {
    const alphabet = ['{', '}', ' ', '\n', 'a', '.'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % alphabet.length;
    const differing: Array<[string, string[], string[]]> = [];
    for (let n = 0; n < 20_000; n++) {
      const text = Array.from({ length: n % 16 }, () => alphabet[next()]).join('');
      const refs = collectReferences(text, '$').map((r) => r.ref);
      if (JSON.stringify(refs) !== JSON.stringify(byGrammar(text))) differing.push([text, refs, byGrammar(text)]);
    }
    expect(differing).toEqual([]);
  });

  it('renders a lone placeholder as the value and placeholders in text as text', () => {
    expect(render('{{ trigger.o }}', scope)).toEqual({ k: 1 });
    expect(render('{{trigger.n}}', scope)).toBe(2);
    expect(render(' {{trigger.n}}', scope)).toBe(' 2');
    expect(render('{{trigger.a}}-{{ steps.s.output.v }}/{{trigger.o}}', scope)).toBe('x-y/{"k":1}');
    expect(render('{{{trigger.a}}}', scope)).toBe('{x}');
    expect(render('{{ trigger.a } }} {{trigger.n}}', scope)).toBe('{{ trigger.a } }} 2');
    expect(collectReferences({ list: ['{{ trigger.a }}', { deep: 'x {{steps.s.output.v}}' }] }, 'steps.0')).toEqual([
      { path: 'steps.0.list.0', ref: 'trigger.a' },
      { path: 'steps.0.list.1.deep', ref: 'steps.s.output.v' },
    ]);
    expect(() => render('{{ trigger.missing }}', scope)).toThrow(TemplateError);
    expect(() => render('a {{ nope }}', scope)).toThrow(TemplateError);
  });
});
