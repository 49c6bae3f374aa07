import { typeSheet } from '../../domain/dataSources/sheetParsing';
import { ofxToXml } from '../../domain/finance/ofxSgml';
import { copilotProvider } from '../../domain/models/copilot';
import { contentToOutput } from '../../domain/models/openaiFormat';
import type { TurnRequest } from '../../domain/models/types';

// Text a caller or a model controls, read by the few patterns that used to backtrack on it (docs/architecture.md
// #regular-expressions): each hostile input is answered in well under a second, and ordinary input as before.
describe('patterns over caller input run in linear time', () => {
  /** The best of three timings of `work`, so that a busy machine's scheduling is not taken for its cost. */
  const fastest = async (work: () => unknown): Promise<number> => {
    const times: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const started = performance.now();
      await work();
      times.push(performance.now() - started);
    }
    return Math.min(...times);
  };
  const turn = (runInput: Record<string, unknown>) =>
    copilotProvider.turn({ modelId: 'builtin/copilot', instructions: null, runInput, messages: [], tools: [] });
  const output = async (runInput: Record<string, unknown>) =>
    ((await turn(runInput)) as { output: Record<string, unknown> }).output;

  it('types a CSV column of 100 KB digit runs that are not numbers', async () => {
    const cell = '1'.repeat(100_000) + 'x';
    expect(await fastest(() => typeSheet('s', [['n'], [cell]]))).toBeLessThan(1_000);
    expect(typeSheet('s', [['n'], [cell]]).columns[0].type).toBe('text');
    expect(typeSheet('s', [['n'], [' -1.5e3 '], ['.5'], ['7.']]).columns[0].type).toBe('number');
    expect(typeSheet('s', [['n'], ['1.2.3']]).columns[0].type).toBe('text');
  });

  it('splits an OFX body of 100 KB of unclosed < into tags', async () => {
    const hostile = '<OFX>' + '<'.repeat(100_000);
    expect(await fastest(() => ofxToXml(hostile))).toBeLessThan(1_000);
    expect(ofxToXml(hostile)).toBe('<OFX></OFX>');
    expect(ofxToXml('<OFX><NAME>A & B<AMT>1</OFX>')).toBe('<OFX><NAME>A &amp; B</NAME><AMT>1</AMT></OFX>');
  });

  it('reads a model reply of 100 KB of spaces inside an unclosed fence', async () => {
    const hostile = '```json' + ' '.repeat(100_000) + '{';
    expect(await fastest(() => contentToOutput(hostile))).toBeLessThan(1_000);
    expect(contentToOutput(hostile)).toEqual({ text: hostile });
    expect(contentToOutput(' ```JSON\n{"a": 1}\n``` ')).toEqual({ a: 1 });
    expect(contentToOutput('```{"a": 2}```')).toEqual({ a: 2 });
    expect(contentToOutput('{"a": 3}')).toEqual({ a: 3 });
  });

  it('answers copilot messages of 10,000 characters (the longest allowed) built to backtrack', async () => {
    const instructions = 'change the instructions to x' + ' '.repeat(9_950) + '"!';
    const where = 'orders where a = b' + ' '.repeat(9_950) + '"!';
    expect(await fastest(() => turn({ copilot: 'agent', message: instructions, agent: {} }))).toBeLessThan(1_000);
    const read = { copilot: 'data_source', message: where, objects: ['orders'] };
    expect(await fastest(() => turn(read))).toBeLessThan(1_000);
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
