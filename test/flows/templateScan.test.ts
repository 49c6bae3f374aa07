import { RE2JS } from 're2js';
import { collectReferences, render, TemplateError, type TemplateScope } from '../../domain/flows/templates';
import { growth, LINEAR_BOUND } from '../helpers/cost';

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

  // Each hostile shape at a length of about n characters.
  const HOSTILE: Array<[string, (n: number) => string]> = [
    ['one unclosed {{ and spaces', (n) => '{{' + ' '.repeat(n)],
    ['many unclosed {{', (n) => '{{'.repeat(n / 2)],
    ['{{ a then spaces', (n) => '{{ a' + ' '.repeat(n)],
    ['{{ a repeated', (n) => '{{ a '.repeat(n / 5)],
    ['spaces between braces that never close', (n) => ('{{' + ' '.repeat(1_000) + '}').repeat(n / 1_000)],
    ['{ and } alternating', (n) => '{}'.repeat(n / 2)],
  ];

  it.each(HOSTILE)('scans %s (100 KB) in time linear in its length', async (_name, hostile) => {
    const scan = (n: number) => {
      const text = hostile(n);
      expect(collectReferences(text, '$')).toEqual([]);
      expect(render(text, scope)).toBe(text);
    };
    expect(await growth(scan, 100_000)).toBeLessThan(LINEAR_BOUND);
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
