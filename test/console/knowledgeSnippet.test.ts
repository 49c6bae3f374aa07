/**
 * A knowledge search snippet marks matches with `<mark>`…`</mark>` and leaves the document's text as is
 * (docs/api/knowledge.md#search); the console splits it into text parts and never reads it as HTML
 * (console/src/areas/knowledge/snippetParts.ts).
 */
import { snippetParts } from '../../console/src/areas/knowledge/snippetParts';

describe('snippetParts', () => {
  it('splits the marked words from the text around them', () => {
    expect(snippetParts('Water the <mark>ferns</mark> every <mark>morning</mark>.')).toEqual([
      { text: 'Water the ', marked: false },
      { text: 'ferns', marked: true },
      { text: ' every ', marked: false },
      { text: 'morning', marked: true },
      { text: '.', marked: false },
    ]);
  });

  it('keeps any other markup in the document as text', () => {
    expect(snippetParts('<b>rain</b> <mark>water</mark> <img src=x onerror=alert(1)>')).toEqual([
      { text: '<b>rain</b> ', marked: false },
      { text: 'water', marked: true },
      { text: ' <img src=x onerror=alert(1)>', marked: false },
    ]);
  });

  it('reads a snippet without marks as one text part', () => {
    expect(snippetParts('no match shown here')).toEqual([{ text: 'no match shown here', marked: false }]);
  });
});
