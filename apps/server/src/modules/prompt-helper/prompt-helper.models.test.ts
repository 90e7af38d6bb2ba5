import { PROMPT_MAX_LENGTH } from '@mirra/contracts';
import { describe, expect, it } from 'vitest';
import { isEnglishPrompt } from '../moderation/prompt-language.models.js';
import {
  clampPrompt,
  cleanModelPrompt,
  foldText,
  guessLanguage,
  PHRASEBOOKS,
  systemPromptFor,
  tokenise,
  writeOfflinePrompt,
} from './prompt-helper.models.js';
import { PHRASEBOOK } from './prompt-helper.phrases.js';

const PHOTO = 'photorealistic, highly detailed, sharp focus, 35mm photo';
const ART = 'highly detailed, vibrant colors';

type Case = [wish: string, prompt: string];

const wishes: Record<string, Case[]> = {
  ru: [
    ['закат на море', `A beautiful scene, sunset over the sea, ${PHOTO}`],
    ['в стиле аниме', `A scene, soft lighting, in anime style, ${ART}`],
    [
      'рыжий кот в шляпе на пляже на закате, в стиле аниме',
      `Ginger cat wearing a hat on the beach, at sunset, in anime style, ${ART}`,
    ],
    [
      'Красивая девушка в красном платье в Париже ночью',
      `Beautiful young woman in a red dress in Paris, at night, ${PHOTO}`,
    ],
    ['кот и собака в лесу', `Cat and dog in the forest, soft natural light, ${PHOTO}`],
    ['я в космосе', `A person in outer space, soft natural light, ${PHOTO}`],
    ['коты на крыше ночью', `Cat on a rooftop, at night, ${PHOTO}`],
    ['Ёлка зимой, акварель', `A scene in winter, soft lighting, watercolor painting, ${ART}`],
  ],
  de: [
    [
      'Eine Katze mit Hut am Strand bei Sonnenuntergang',
      `Cat wearing a hat on the beach, at sunset, ${PHOTO}`,
    ],
    ['schöne Frau im Kleid, Ölgemälde', `Beautiful woman in a dress, soft lighting, oil painting, ${ART}`],
    ['Sonnenuntergang am Meer', `A beautiful scene, sunset over the sea, ${PHOTO}`],
    ['ein roter Drache in den Bergen', `Red dragon in the mountains, soft natural light, ${PHOTO}`],
  ],
  uk: [
    ['захід сонця на морі', `A beautiful scene, sunset over the sea, ${PHOTO}`],
    ['рудий кіт у капелюсі на пляжі', `Ginger cat wearing a hat on the beach, soft natural light, ${PHOTO}`],
    [
      'дівчина в лісі взимку, акварель',
      `Young woman in the forest in winter, soft lighting, watercolor painting, ${ART}`,
    ],
    ['у стилі аніме', `A scene, soft lighting, in anime style, ${ART}`],
  ],
  kk: [
    ['теңіз жағасындағы мысық', `Cat by the sea, soft natural light, ${PHOTO}`],
    ['әдемі қыз далада күн батқанда', `Beautiful young woman in the steppe, at sunset, ${PHOTO}`],
    // Typed on a Russian keyboard, without the Kazakh letters.
    ['мысык тауда', `Cat in the mountains, soft natural light, ${PHOTO}`],
    ['киіз үй, аниме стилінде', `Yurt, soft lighting, in anime style, ${ART}`],
  ],
  az: [
    ['dəniz sahilində gözəl qız', `Beautiful young woman by the sea, soft natural light, ${PHOTO}`],
    // Typed without the Azerbaijani letters.
    ['deniz sahilinde pisik, anime uslubunda', `Cat by the sea, soft lighting, in anime style, ${ART}`],
    ['qırmızı maşın gecə şəhəri', `Red car in a city at night, ${PHOTO}`],
    ['dənizdə gün batımı', `A beautiful scene, sunset over the sea, ${PHOTO}`],
  ],
  en: [
    ['a cat in a hat on the beach', `A cat in a hat on the beach, soft natural light, ${PHOTO}`],
    ['cyberpunk city at night', `Cyberpunk city at night, ${PHOTO}`],
    [
      'oil painting of a lighthouse.',
      'Oil painting of a lighthouse, soft natural light, highly detailed, sharp focus, 35mm photo',
    ],
  ],
};

describe('the offline prompt helper', () => {
  for (const [language, cases] of Object.entries(wishes)) {
    it.each(cases)(`writes an English prompt from ${language}: %j`, (wish, prompt) => {
      const written = writeOfflinePrompt(wish);
      expect(written).toBe(prompt);
      expect(isEnglishPrompt(written)).toBe(true);
    });
  }

  it('keeps unknown Latin words (names, brands) as typed and drops unknown words in other scripts', () => {
    expect(writeOfflinePrompt('iPhone на столе')).toBe(`iPhone on a table, soft natural light, ${PHOTO}`);
    expect(writeOfflinePrompt('Barbie в розовом платье')).toBe(
      `Barbie in a pink dress, soft natural light, ${PHOTO}`,
    );
    expect(writeOfflinePrompt('кот абракадабрище')).toBe(`Cat, soft natural light, ${PHOTO}`);
  });

  it('writes instructions for the editing mode', () => {
    expect(writeOfflinePrompt('сделай ярче и размой фон', 'editing')).toBe(
      'Make it brighter, blur the background',
    );
    expect(writeOfflinePrompt('черно-белое фото', 'editing')).toBe('Make it black and white');
    expect(writeOfflinePrompt('mach es heller', 'editing')).toBe('Make it brighter');
    expect(writeOfflinePrompt('зроби яскравіше, обріж', 'editing')).toBe('Make it brighter, crop');
    expect(writeOfflinePrompt('fonu bulanıqlaşdır', 'editing')).toBe('Blur the background');
    expect(writeOfflinePrompt('фонды бұлдырат', 'editing')).toBe('Blur the background');
  });

  it('adds motion for video', () => {
    expect(writeOfflinePrompt('кот бежит', 'video')).toBe(
      `Cat running, soft natural light, ${PHOTO}, smooth cinematic motion`,
    );
  });

  it('stays within the prompt limit', () => {
    const long = writeOfflinePrompt('a '.repeat(PROMPT_MAX_LENGTH));
    expect(long.length).toBeLessThanOrEqual(PROMPT_MAX_LENGTH);
    expect(clampPrompt('short')).toBe('short');
  });
});

describe('tokenise', () => {
  it('splits clauses and words in Cyrillic and Azerbaijani Latin, folding letters', () => {
    expect(tokenise("Сім'я у парку, чорно-білий!").map((c) => c.words)).toEqual([
      ["сім'я", 'в', 'парку'],
      ['чорно-білии'],
    ]);
    expect(tokenise('Gözəl QIZ, şəhərdə').map((c) => c.words)).toEqual([['gozel', 'qiz'], ['seherde']]);
    expect(tokenise('Әдемі құс').map((c) => c.raw)).toEqual([['Әдемі', 'құс']]);
    expect(foldText('Ёлка ÄÖÜ ß ə ı қ ү')).toBe('елка aou ss e i к у');
  });

  it('guesses the language by what each phrasebook recognises', () => {
    const guess = (text: string) => guessLanguage(tokenise(text));
    expect(guess('кот и собака')).toBe('ru');
    expect(guess('кіт і собака')).toBe('uk');
    expect(guess('мысық және ит')).toBe('kk');
    expect(guess('Katze und Hund')).toBe('de');
    expect(guess('pişik və köpək')).toBe('az');
    expect(guess('a kind old man in a boot')).toBeNull();
  });
});

describe('the phrasebook', () => {
  it('has a few hundred entries in each language, each one readable', () => {
    for (const [language, entries] of Object.entries(PHRASEBOOK)) {
      expect(entries.length, language).toBeGreaterThan(150);
      for (const [source, english, kind, edit] of entries) {
        expect(tokenise(source).flatMap((c) => c.words).length, source).toBeGreaterThan(0);
        if (english) expect(isEnglishPrompt(english), `${source} → ${english}`).toBe(true);
        if (edit) expect(isEnglishPrompt(edit), edit).toBe(true);
        if (kind === 'edit') expect(edit, source).toBeTruthy();
      }
    }
  });

  it('never gives one written form two meanings within a language', () => {
    for (const [language, entries] of Object.entries(PHRASEBOOK)) {
      const seen = new Map<string, string>();
      for (const [source, english, kind] of entries) {
        const key = tokenise(source)
          .flatMap((c) => c.literal)
          .join(' ');
        const meaning = `${english}|${kind}`;
        expect(seen.get(key) ?? meaning, `${language}: ${source}`).toBe(meaning);
        seen.set(key, meaning);
      }
      expect(PHRASEBOOKS[language as keyof typeof PHRASEBOOKS].literal.size).toBe(seen.size);
    }
  });

  it('tells apart words that differ only in letters people leave out, when written with them', () => {
    expect(writeOfflinePrompt('şəhərdə səhər')).toBe(
      `A beautiful scene in the city, in the morning, ${PHOTO}`,
    );
  });
});

describe('language model answers', () => {
  it.each([
    ['A red fox in the snow, golden light', 'A red fox in the snow, golden light'],
    ['"A red fox in the snow"', 'A red fox in the snow'],
    ['Prompt: A red fox\nin the snow', 'A red fox in the snow'],
    ['**Prompt:** a red fox', 'a red fox'],
    ['<think>the user wants a fox</think> A red fox', 'A red fox'],
    ['```\nA red fox\n```', 'A red fox'],
  ])('cleans %j', (raw, prompt) => {
    expect(cleanModelPrompt(raw)).toBe(prompt);
  });

  it.each(['', '   ', 'Рыжая лиса в снегу', '""'])('refuses an unusable answer %j', (raw) => {
    expect(cleanModelPrompt(raw)).toBeNull();
  });

  it('asks for one English prompt, and for an instruction when editing', () => {
    expect(systemPromptFor('simple')).toMatch(/one vivid English prompt/);
    expect(systemPromptFor('editing')).toMatch(/instruction for editing the photo/);
    expect(systemPromptFor(undefined)).toMatch(/Answer with the prompt only/);
  });
});
