import { describe, expect, it } from 'vitest';
import { isEnglishPrompt } from './prompt-language.models.js';

describe('isEnglishPrompt', () => {
  it.each([
    'A cat in a hat, 35mm photo, f/1.8',
    'portrait of a woman, golden hour, 85mm',
    'iPhone 15 Pro on a wooden desk 🙂',
    'Pokémon card art',
    'Motörhead concert poster',
    'café terrace at night, Van Gogh style',
    'Häagen-Dazs ice cream on a table',
    'Beyoncé-style stage lights',
    'İstanbul skyline at dusk',
    'a woman in a fur coat with a fur hat',
    'Das Boot submarine poster',
    'a painting of the Seine in Paris',
    "don't smile, look serious",
    '',
    '!!! ??? 123',
  ])('accepts English: %j', (text) => {
    expect(isEnglishPrompt(text)).toBe(true);
  });

  it.each([
    // Cyrillic: Russian, Ukrainian, Kazakh.
    'кот в шляпе',
    'Кіт у капелюсі',
    'теңіз жағасындағы мысық',
    'a cat в шляпе',
    // Other scripts.
    '猫',
    'γάτα',
    // German by its function words and letters.
    'Eine Katze mit einem Hut im Stil von Van Gogh',
    'schöner Sonnenuntergang über dem Meer',
    'Sonnenuntergang am Meer',
    'ein Hund und eine Katze',
    // Azerbaijani by its letters, or its words when typed without them.
    'dəniz sahilində gün batımı',
    'gözəl qız',
    'deniz sahilinde gunes batimi ve bir qiz',
  ])('refuses what is not English: %j', (text) => {
    expect(isEnglishPrompt(text)).toBe(false);
  });
});
