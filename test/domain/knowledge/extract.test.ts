import { parseCsv } from '../../../domain/knowledge/csv';
import { ExtractError, extractText, fileFormat } from '../../../domain/knowledge/extract';
import { htmlToText } from '../../../domain/knowledge/html';

// Text extraction of library files for knowledge documents (docs/api/knowledge.md#from-a-library-file).
describe('knowledge text extraction', () => {
  it('tells the format by media type, else by extension for generic types', () => {
    expect(fileFormat('text/html; charset=utf-8', 'x.bin')).toBe('html');
    expect(fileFormat('application/octet-stream', 'Notes.MD')).toBe('markdown');
    expect(fileFormat('text/plain', 'data.csv')).toBe('text');
    expect(fileFormat('text/x-unknown', 'data.csv')).toBe('csv');
    expect(fileFormat('image/png', 'a.txt')).toBeUndefined();
    expect(fileFormat('application/octet-stream', 'a.pdf')).toBeUndefined();
  });

  it('parses CSV per RFC 4180: quotes, doubled quotes, line breaks in cells, CRLF, empty cells', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\n"multi\nline",\n\n"",z\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['multi\nline', ''],
      ['', 'z'],
    ]);
    expect(parseCsv('last,row')).toEqual([['last', 'row']]);
    expect(() => parseCsv('a,"open')).toThrow(ExtractError);
    expect(() => parseCsv('"a"b,c')).toThrow(/after a closing quote/);
  });

  it('keeps the visible text of HTML only', () => {
    const html = `<!doctype html><html><head><title>T &amp; C</title><script>var x = "<p>no</p>";</script>
      <style>p { color: red }</style></head><body><!-- hidden --><h1>Hello&nbsp;world</h1>
      <p>A <b>bold</b> move &#x2014; &euro;5 &unknown;</p><ul><li>one</li><li>two</li></ul>
      <table><tr><td>c1</td><td>c2</td></tr></table><template><p>no</p></template></body></html>`;
    expect(htmlToText(html)).toBe('T & C\nHello world\nA bold move — €5 &unknown;\none\ntwo\nc1 c2');
  });

  it('flattens JSON to path: value lines and refuses bytes that are not UTF-8', () => {
    expect(extractText(Buffer.from('{"a":[{"b":true}],"c":"x"}'), 'json')).toBe('a.0.b: true\nc: x');
    expect(extractText(Buffer.from('"just a string"'), 'json')).toBe('just a string');
    expect(extractText(Buffer.from('\ufeffwith BOM\u0000 and NUL'), 'text')).toBe('with BOM and NUL');
    expect(() => extractText(Buffer.from([0xff, 0xfe, 0x41]), 'text')).toThrow(/not UTF-8/);
  });
});
