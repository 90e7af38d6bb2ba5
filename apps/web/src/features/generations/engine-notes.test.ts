import { describe, expect, it } from 'vitest';
import type { TGenerationNote } from '../../lib/api-types';
import { createTestI18n } from '../../test/i18n';
import { describeEngineNote } from './engine-notes';

const note = (
  code: TGenerationNote['code'],
  text: string,
  params: TGenerationNote['params'] = {},
): TGenerationNote => ({ code, params, text });

async function wordIn(language: string, value: TGenerationNote) {
  const i18n = await createTestI18n(language as 'en');
  return describeEngineNote(i18n.t, value);
}

describe('what the engine did, in the user’s language', () => {
  it('words a coded note in Russian instead of the engine’s English', async () => {
    expect(await wordIn('ru', note('edit.sepia', 'sepia tone'))).toBe('тон сепии');
    expect(
      await wordIn('ru', note('scene.keywords', 'Keywords used: sea, dawn.', { keywords: 'sea, dawn' })),
    ).toBe('Использованы ключевые слова: sea, dawn.');
  });

  it('names a strength and a style in that language too', async () => {
    expect(await wordIn('de', note('edit.blur', 'blurred (strong)', { strength: 'strong' }))).toBe(
      'weichgezeichnet (stark)',
    );
    expect(
      await wordIn(
        'ru',
        note('styling.intro', 'Watercolour style by the offline local engine…', { style: 'watercolor' }),
      ),
    ).toMatch(/^Стиль «Акварель» /);
  });

  it('counts faces with the plural form each language needs', async () => {
    const faces = (count: number) => note('face_swap.many_faces', `${count} faces were found`, { count });
    expect(await wordIn('ru', faces(2))).toBe('Найдено 2 лица; заменено самое крупное.');
    expect(await wordIn('ru', faces(5))).toBe('Найдено 5 лиц; заменено самое крупное.');
    expect(await wordIn('uk', faces(5))).toBe('Знайдено 5 облич; замінено найбільше.');
    expect(await wordIn('en', faces(3))).toBe('3 faces were found; the largest one was swapped.');
  });

  it('says in English exactly what the engine said (the catalogue mirrors it)', async () => {
    const text = 'upscaled 5.33× to 4096×3072 (capped at 4096 px), Lanczos with light sharpening';
    expect(
      await wordIn(
        'en',
        note('edit.upscaled_capped', text, { factor: '5.33', width: 4096, height: 3072, limit: 4096 }),
      ),
    ).toBe(text);
  });

  it('shows the English text of a note without a code (results made before codes)', async () => {
    expect(await wordIn('kk', note(null, 'sepia tone'))).toBe('sepia tone');
  });
});
