import { describe, expect, it } from 'vitest';
import { createMediaUrls } from '../../shared/storage/media-urls.js';
import type { GenerationRow } from './generations.repository.js';
import { type StoredResult, toGenerationJson } from './generations.serializers.js';

const mediaUrls = createMediaUrls('test-secret', { defaultTtlSeconds: 3600 });
const now = new Date('2026-11-24T12:00:00Z');

function rowWithNotes(notes: StoredResult['notes']): GenerationRow {
  const result: StoredResult = {
    original: { key: 'generations/1/original.png', width: 512, height: 512, contentType: 'image/png' },
    variants: [],
    engine: 'local',
    notes,
  };
  return {
    uuid: '00000000-0000-4000-a000-000000000001',
    mode: 'editing',
    status: 100,
    progress: 100,
    prompt: 'sepia',
    guidance: 7,
    seed: 1,
    style: null,
    inputUploads: [],
    modelUuid: null,
    postUuid: null,
    cost: 1,
    createdAt: now,
    finishedAt: now,
    result,
    errorCode: null,
    errorDetail: null,
    errorReason: null,
    refunded: false,
  } as unknown as GenerationRow;
}

describe('a generation’s notes on the wire', () => {
  it('carry the engine’s code and params, with the English text', () => {
    const json = toGenerationJson(
      rowWithNotes([{ code: 'edit.brightness', params: { percent: '+20' }, text: 'brightness +20%' }]),
      mediaUrls,
      now,
    );
    expect(json.result!.notes).toEqual([
      { code: 'edit.brightness', params: { percent: '+20' }, text: 'brightness +20%' },
    ]);
  });

  it('keep the English text of results stored before notes had codes, without a code', () => {
    const json = toGenerationJson(rowWithNotes(['sepia tone']), mediaUrls, now);
    expect(json.result!.notes).toEqual([{ code: null, params: {}, text: 'sepia tone' }]);
  });
});
