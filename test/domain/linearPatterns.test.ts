import { typeSheet } from '../../domain/dataSources/sheetParsing';
import { ofxToXml } from '../../domain/finance/ofxSgml';
import { copilotProvider } from '../../domain/models/copilot';
import { contentToOutput } from '../../domain/models/openaiFormat';
import { costRatio, growth, LINEAR_BOUND } from '../helpers/cost';

// Text a caller or a model controls, read by the few patterns that used to backtrack on it (docs/architecture.md
// #regular-expressions): the cost of each hostile input grows linearly with its length, or matches that of
// ordinary text as long (test/helpers/cost.ts), and ordinary input is read as before.
describe('patterns over caller input run in linear time', () => {
  const turn = (runInput: Record<string, unknown>) =>
    copilotProvider.turn({ modelId: 'builtin/copilot', instructions: null, runInput, messages: [], tools: [] });
  const output = async (runInput: Record<string, unknown>) =>
    ((await turn(runInput)) as { output: Record<string, unknown> }).output;

  it('types a CSV column of 100 KB digit runs that are not numbers', async () => {
    const digits = (n: number) => '1'.repeat(n) + 'x';
    expect(await growth((n) => typeSheet('s', [['n'], [digits(n)]]), 100_000)).toBeLessThan(LINEAR_BOUND);
    const cell = digits(100_000);
    expect(typeSheet('s', [['n'], [cell]]).columns[0].type).toBe('text');
    expect(typeSheet('s', [['n'], [' -1.5e3 '], ['.5'], ['7.']]).columns[0].type).toBe('number');
    expect(typeSheet('s', [['n'], ['1.2.3']]).columns[0].type).toBe('text');
  });

  it('splits an OFX body of 100 KB of unclosed < into tags', async () => {
    expect(await growth((n) => ofxToXml('<OFX>' + '<'.repeat(n)), 100_000)).toBeLessThan(LINEAR_BOUND);
    const hostile = '<OFX>' + '<'.repeat(100_000);
    expect(ofxToXml(hostile)).toBe('<OFX></OFX>');
    expect(ofxToXml('<OFX><NAME>A & B<AMT>1</OFX>')).toBe('<OFX><NAME>A &amp; B</NAME><AMT>1</AMT></OFX>');
  });

  it('reads a model reply of 100 KB of spaces inside an unclosed fence', async () => {
    const fenced = (n: number) => '```json' + ' '.repeat(n) + '{';
    expect(await growth((n) => contentToOutput(fenced(n)), 100_000)).toBeLessThan(LINEAR_BOUND);
    const hostile = fenced(100_000);
    expect(contentToOutput(hostile)).toEqual({ text: hostile });
    expect(contentToOutput(' ```JSON\n{"a": 1}\n``` ')).toEqual({ a: 1 });
    expect(contentToOutput('```{"a": 2}```')).toEqual({ a: 2 });
    expect(contentToOutput('{"a": 3}')).toEqual({ a: 3 });
  });

  it('answers copilot messages of 10,000 characters (the longest allowed) built to backtrack', async () => {
    // against ordinary text of the same length rather than by growth: a turn's regular expressions run on RE2,
    // whose per-turn cost grows slightly faster than the length at these sizes, while two texts of one length
    // cost the same unless one of them makes a pattern backtrack
    const instructions = (filler: string) => 'change the instructions to x' + filler.repeat(9_970) + '"!';
    const where = (filler: string) => 'orders where a = b' + filler.repeat(9_980) + '"!';
    expect(instructions(' ')).toHaveLength(10_000);
    const change = (filler: string) => () => turn({ copilot: 'agent', message: instructions(filler), agent: {} });
    expect(await costRatio(change(' '), change('b'))).toBeLessThan(3);
    const read = (filler: string) => () =>
      turn({ copilot: 'data_source', message: where(filler), objects: ['orders'] });
    expect(await costRatio(read(' '), read('b'))).toBeLessThan(3);
    expect(
      await output({ copilot: 'agent', message: 'Set the instructions to “Be brief.” ', agent: {} }),
    ).toMatchObject({
      proposal: { changes: { instructions: 'Be brief.' } },
    });
    expect(
      await output({ copilot: 'data_source', message: 'first 5 orders where status is "open"?', objects: ['orders'] }),
    ).toMatchObject({ read: { object: 'orders', limit: 5, where: [{ column: 'status', op: 'eq', value: 'open' }] } });
    expect(
      await output({ copilot: 'data_source', message: 'orders where qty\u00a0equals 42', objects: ['orders'] }),
    ).toMatchObject({ read: { where: [{ column: 'qty', op: 'eq', value: 42 }] } });
  });
});
