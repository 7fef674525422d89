import { describe, expect, it } from 'vitest';
import { validateSpanResponse } from '../../src/model/index.js';
import type { SpanRequest } from '../../src/model/index.js';

const request: SpanRequest = {
  id: 'p',
  name: 'P',
  documents: [
    { id: 'd1', sentences: [{ id: 0, text: 'Ada met Alan.' }, { id: 1, text: 'In London.' }] },
    { id: 'd2', sentences: [{ id: 0, text: 'Monday.' }] },
  ],
};

describe('validateSpanResponse', () => {
  it('accepts an answer that leaves lines out and uses known labels in any case', () => {
    const answer = { id: 'p', documents: [{ id: 'd1', labels: [{ id: 1, entities: [{ label: 'location', start_char: 3, end_char: 9, layer: 0 }] }] }, { id: 'd2', labels: [] }] };
    expect(validateSpanResponse(answer, request, { spanLabels: ['LOCATION'] })).toEqual([]);
  });

  it('lists every broken rule with its path when the answer breaks the contract', () => {
    const answer = {
      id: 'q',
      documents: [
        { id: 'd1', labels: [{ id: 0, entities: [{ label: 'ALIEN', start_char: 4, end_char: 99 }] }, { id: 0, entities: [] }, { id: 7, entities: [] }] },
        { id: 'd1', labels: [] },
        { id: 'nope', labels: [] },
      ],
    };
    expect(validateSpanResponse(answer, request, { spanLabels: ['PERSON'] })).toEqual([
      { path: '$.id', message: 'must be the project id of the request ("p"), got "q"' },
      { path: '$.documents[0].labels[0].entities[0].label', message: 'label "ALIEN" is not a span label of the project\'s label sets' },
      { path: '$.documents[0].labels[0].entities[0]', message: expect.stringMatching(/^start_char\/end_char must satisfy 0 <= start_char < end_char <= 13 .*start_char=4 end_char=99/) },
      { path: '$.documents[0].labels[1].id', message: 'line 0 is answered twice' },
      { path: '$.documents[0].labels[2].id', message: 'must be a line id of the request, got 7' },
      { path: '$.documents[1].id', message: 'document "d1" is answered twice' },
      { path: '$.documents[2].id', message: 'must be a document id of the request, got "nope"' },
      { path: '$.documents', message: 'document "d2" of the request is not answered' },
    ]);
  });

  it('accepts any label name when no span labels are given', () => {
    const answer = { id: 'p', documents: [{ id: 'd1', labels: [{ id: 0, entities: [{ label: 'ANYTHING', start_char: 0, end_char: 3 }] }] }, { id: 'd2', labels: [] }] };
    expect(validateSpanResponse(answer, request)).toEqual([]);
  });
});
