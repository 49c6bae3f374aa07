import { XMLValidator } from 'fast-xml-parser';
import { parseDate } from '../../domain/finance/dates';
import { parseBankAmount, presentMoney } from '../../domain/finance/money';
import { ofxToXml } from '../../domain/finance/ofxSgml';

// The shapes real bank files take (docs/api/finance.md#bank-files), one by one; the files themselves are
// checked against maintained parsers in corpus.test.ts.
describe('amounts as banks write them', () => {
  it.each([
    ['$103.00', '.', 103_000_000, null],
    ['-$5.00', '.', -5_000_000, null],
    ['$-5.00', '.', -5_000_000, null],
    ['($12.00)', '.', -12_000_000, null],
    ['1,234.56', '.', 1_234_560_000, null],
    ['1.234,56', ',', 1_234_560_000, null],
    ["11'373.94", '.', 11_373_940_000, null],
    ['12.00-', '.', -12_000_000, null],
    ['1.234,56 €', ',', 1_234_560_000, 'EUR'],
    ['USD 12.50', '.', 12_500_000, 'USD'],
    ['12.50CHF', '.', 12_500_000, 'CHF'],
    ['US$ 9', '.', 9_000_000, 'USD'],
    ['CA$-9.10', '.', -9_100_000, 'CAD'],
    ['£0.99', '.', 990_000, 'GBP'],
    ['1 234,50', ',', 1_234_500_000, null],
  ] as Array<[string, string, number, string | null]>)('%s (decimal %s)', (text, decimal, micros, currency) => {
    expect(parseBankAmount(text, decimal as '.' | ',')).toEqual({ micros, currency });
  });

  it.each(['abc', 'EUR', '$$1', '€1 USD', '12.3.4', '1.2345678', 'twelve', '$ 1 XYZ'])('refuses %s', (text) => {
    expect(parseBankAmount(text)).toBeNull();
  });

  it('shows money in its own currency, exactly, with its minor units', () => {
    expect(presentMoney(-12_500_000, 'USD')).toEqual({ amount: '-12.50', amountMinor: -1250 });
    expect(presentMoney(1500_000_000, 'JPY')).toEqual({ amount: '1500', amountMinor: 1500 });
    expect(presentMoney(1_234_000, 'BHD')).toEqual({ amount: '1.234', amountMinor: 1234 });
    expect(presentMoney(-1_778_395_200, 'USD')).toEqual({ amount: '-1778.3952', amountMinor: -177840 });
    expect(presentMoney(0, 'EUR')).toEqual({ amount: '0.00', amountMinor: 0 });
    expect(presentMoney('9007199254740993000000', 'USD').amount).toBe('9007199254740993.00');
  });

  it('reads two-digit years as this century', () => {
    expect(parseDate('2/20/19', 'MM/DD/YY')).toBe('2019-02-20');
    expect(parseDate('20/02/19', 'DD/MM/YY')).toBe('2019-02-20');
    expect(parseDate('31.12.99', 'DD.MM.YY')).toBe('2099-12-31');
    expect(parseDate('2/30/19', 'MM/DD/YY')).toBeNull();
  });
});

describe('OFX as banks send it', () => {
  const xml = (text: string) => ofxToXml(text).replace(/<svc-line>\d+<\/svc-line>/g, '');

  it('closes leaves, keeps aggregates, reads an XML header over an SGML body', () => {
    const text = '<?xml version="1.0"?>\n<?OFX OFXHEADER="200"?>\n<OFX>\n<A>\n<B>1\n<C>x & y\n</A>\n</OFX>';
    expect(xml(text)).toBe('<OFX><A><B>1</B><C>x &amp; y</C></A></OFX>');
  });

  it('takes an element with nothing after it for an empty leaf, unless its end tag comes before its parent’s', () => {
    expect(xml('<OFX><S><MEMO><NAME>n</S></OFX>')).toBe('<OFX><S><MEMO></MEMO><NAME>n</NAME></S></OFX>');
    expect(xml('<OFX><S><MEMO></MEMO><NAME>n</NAME></S></OFX>')).toBe('<OFX><S><MEMO></MEMO><NAME>n</NAME></S></OFX>');
  });

  it('drops end tags never opened and reads lower-case tags', () => {
    expect(xml('<ofx><s><t>1</x></s></ofx>')).toBe('<OFX><S><T>1</T></S></OFX>');
    expect(xml('<OFX><S><T>1</T></T></S></S><B>2</OFX>')).toBe('<OFX><S><T>1</T></S><B>2</B></OFX>');
  });

  it('marks each transaction with the line it starts on', () => {
    const text = 'OFXHEADER:100\n\n<OFX>\n<STMTTRN>\n<TRNAMT>1\n</STMTTRN>\n<STMTTRN>\n<TRNAMT>2\n</STMTTRN>\n</OFX>';
    expect(ofxToXml(text).match(/<svc-line>(\d+)<\/svc-line>/g)).toEqual([
      '<svc-line>4</svc-line>',
      '<svc-line>7</svc-line>',
    ]);
  });

  it('always answers well-formed XML, in time linear in the input', () => {
    const shapes = [
      '<OFX>' + '<A>'.repeat(50_000),
      '<OFX>' + '<A>x'.repeat(50_000),
      '<OFX>' + '</A>'.repeat(50_000),
      '<OFX>' + '<A></B>'.repeat(50_000),
      '<OFX>' + '<A><B></A>'.repeat(30_000),
      '<OFX>x<A>1</A>' + '<'.repeat(50_000),
      '<OFX></OFX><A>1</A>',
    ];
    for (const text of shapes) {
      let result: string;
      try {
        result = ofxToXml(text);
      } catch (err) {
        expect((err as Error).message).toBe('nesting too deep');
        continue;
      }
      expect(XMLValidator.validate(result)).toBe(true);
    }
  });
});
