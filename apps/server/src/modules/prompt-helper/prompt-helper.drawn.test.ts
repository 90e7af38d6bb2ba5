import type { TEngineOffer } from '@mirra/contracts';
import { planScene, renderScene, subjectCoverage, subjectPlacements } from '@mirra/imaging';
import { describe, expect, it } from 'vitest';
import { writeOfflinePrompt } from './prompt-helper.models.js';

/**
 * The offline engine draws what was asked: for a fixed set of prompts (English, and the five other
 * languages through the offline prompt helper, as the create form sends them), every main noun is
 * named by the composition plan AND its pixels are in the picture: where the subject is the
 * front-most thing drawn, the picture differs from the same scene rendered without subjects.
 */

const LOCAL_OFFER: TEngineOffer = { engine: 'local', ai: false, abilities: ['offline_drawing'] };

/** [prompt, its language, the nouns that must be drawn]. */
const PROMPTS: Array<[string, 'en' | 'ru' | 'de' | 'uk' | 'kk' | 'az', string[]]> = [
  ['a red fox in the snow', 'en', ['fox']],
  ['a cozy cafe in Paris at night, rain, neon reflections', 'en', ['table', 'coffee']],
  ['three red balloons over a lighthouse', 'en', ['balloon', 'lighthouse']],
  ['a cat sitting on a sofa next to a window', 'en', ['cat', 'sofa', 'window']],
  ['two dogs playing on the beach at sunset', 'en', ['dog']],
  ['an astronaut and a rocket in space', 'en', ['astronaut', 'rocket']],
  ['a white horse next to a house in the mountains', 'en', ['horse', 'house']],
  ['a black cat under a tree', 'en', ['cat', 'tree']],
  ['a blue car in the city at night', 'en', ['car']],
  ['a sailboat on the sea at sunrise', 'en', ['sailboat']],
  ['a castle on a hill at golden hour', 'en', ['castle']],
  ['five yellow ducks on a lake', 'en', ['duck']],
  ['a penguin on the ice', 'en', ['penguin']],
  ['a teddy bear on a bed', 'en', ['teddy bear', 'bed']],
  ['a cup of coffee on a table', 'en', ['coffee', 'table']],
  ['a bicycle next to a tree in spring', 'en', ['bicycle', 'tree']],
  ['a dragon flying over a castle', 'en', ['dragon', 'castle']],
  ['an owl in the forest at night', 'en', ['owl']],
  ['a camel in the desert', 'en', ['camel']],
  ['a snowman in a winter forest', 'en', ['snowman']],
  ['a pink unicorn in a flower meadow', 'en', ['unicorn']],
  ['two cats and a dog in a living room', 'en', ['cat', 'dog']],
  ['a bear in the forest', 'en', ['bear']],
  ['a lion on a rock at sunset', 'en', ['lion']],
  ['a tiger in the jungle', 'en', ['tiger']],
  ['a wolf howling at the moon', 'en', ['wolf']],
  ['an elephant next to a palm tree', 'en', ['elephant', 'palm tree']],
  ['a butterfly over the flowers', 'en', ['butterfly']],
  ['a hot air balloon over the mountains', 'en', ['hot air balloon']],
  ['an airplane above the clouds', 'en', ['airplane']],
  ['a helicopter over the city', 'en', ['helicopter']],
  ['a train in the mountains', 'en', ['train']],
  ['a red bus in London', 'en', ['bus']],
  ['a yellow taxi in New York at night', 'en', ['taxi']],
  ['a robot in a room', 'en', ['robot']],
  ['a green dinosaur in the jungle', 'en', ['dinosaur']],
  ['a rabbit in the garden', 'en', ['rabbit']],
  ['a deer in a snowy forest', 'en', ['deer']],
  ['a turtle on the beach', 'en', ['turtle']],
  ['a dolphin in the ocean', 'en', ['dolphin']],
  ['a whale in the sea', 'en', ['whale']],
  ['a frog on a lily pad in a pond', 'en', ['frog']],
  ['a pumpkin on a table at night', 'en', ['pumpkin', 'table']],
  ['a birthday cake on a table', 'en', ['birthday cake', 'table']],
  ['a pizza on a table in a cafe', 'en', ['pizza', 'table']],
  ['a guitar next to a chair', 'en', ['guitar', 'chair']],
  ['a lamp next to a sofa', 'en', ['lamp', 'sofa']],
  ['a tent in the mountains under the stars', 'en', ['tent']],
  ['a bee on a sunflower', 'en', ['bee', 'sunflower']],
  ['a lighthouse on the coast at night', 'en', ['lighthouse']],
  ['a church in a snowy village', 'en', ['church']],
  ['a house by the lake', 'en', ['house']],
  ['a purple butterfly on a rose', 'en', ['butterfly', 'rose']],
  ['four red apples on a table', 'en', ['apple', 'table']],
  ['three birds over the sea', 'en', ['bird']],
  ['six balloons in the sky', 'en', ['balloon']],
  ['a girl with a dog in the park', 'en', ['girl', 'dog']],
  ['a man next to a car', 'en', ['man', 'car']],
  ['a woman on the beach', 'en', ['woman']],
  ['a child with a kite on a hill', 'en', ['child', 'kite']],
  ['a family at the beach', 'en', ['family']],
  ['a couple in Paris at night', 'en', ['couple']],
  ['an alien in a flying saucer over the desert', 'en', ['alien', 'flying saucer']],
  ['a ghost in a dark forest', 'en', ['ghost']],
  ['a wizard in the mountains', 'en', ['wizard']],
  ['a princess in a castle', 'en', ['princess', 'castle']],
  ['a cactus in the desert at noon', 'en', ['cactus']],
  ['a sunflower field with a tractor', 'en', ['tractor']],
  ['a motorcycle on a road at dusk', 'en', ['motorcycle']],
  ['a horse in a field at sunrise', 'en', ['horse']],
  ['a cow and a sheep on a farm', 'en', ['cow', 'sheep']],
  ['a pig in the mud', 'en', ['pig']],
  ['a chicken next to a barn', 'en', ['chicken']],
  ['a monkey in a tree', 'en', ['monkey', 'tree']],
  ['a giraffe in the savanna at sunset', 'en', ['giraffe']],
  ['a squirrel in an autumn forest', 'en', ['squirrel']],
  ['a fish in a lake', 'en', ['fish']],
  ['a black dog in front of a house', 'en', ['dog', 'house']],
  ['a snail on a mushroom after the rain', 'en', ['snail', 'mushroom']],
  ['рыжая лиса в снегу', 'ru', ['fox']],
  ['собака на пляже на закате', 'ru', ['dog']],
  ['лошадь в горах', 'ru', ['horse']],
  ['кофе в кафе ночью', 'ru', ['coffee']],
  ['машина в городе ночью', 'ru', ['car']],
  ['робот в космосе', 'ru', ['robot']],
  ['ein Hund am Strand', 'de', ['dog']],
  ['ein roter Fuchs im Schnee', 'de', ['fox']],
  ['ein Pferd in den Bergen', 'de', ['horse']],
  ['ein Schloss am See', 'de', ['castle']],
  ['собака в лісі', 'uk', ['dog']],
  ['ведмідь у горах', 'uk', ['bear']],
  ['будинок біля моря', 'uk', ['house']],
  ['мысық түнде', 'kk', ['cat']],
  ['түлкі қарда', 'kk', ['fox']],
  ['аю орманда', 'kk', ['bear']],
  ['үй тауда', 'kk', ['house']],
  ['pişik gecə', 'az', ['cat']],
  ['tülkü qarda', 'az', ['fox']],
  ['ayı meşədə', 'az', ['bear']],
  ['ev dağlarda', 'az', ['house']],
];

const SIZE = 256;
const SEED = 7;

/** The English the local engine is given: as typed, or the prompt helper's offline English. */
const english = (prompt: string, language: string) =>
  language === 'en' ? prompt : writeOfflinePrompt(prompt, 'simple', LOCAL_OFFER);

const planFor = (text: string) => ({ ...planScene(text, SEED), width: SIZE, height: SIZE });

/** Whether each asked noun is in the plan and, where it is front-most, visibly in the picture. */
async function drawnNouns(text: string, nouns: string[]): Promise<Record<string, boolean>> {
  const plan = planFor(text);
  const [full, bare, coverage] = await Promise.all([
    renderScene(plan),
    renderScene({ ...plan, subjects: [] }),
    subjectCoverage(plan),
  ]);
  const result: Record<string, boolean> = {};
  for (const noun of nouns) {
    const indices = plan.subjects.flatMap((subject, index) =>
      subject.noun === noun || subject.noun.endsWith(` ${noun}`) || subject.phrase.includes(noun)
        ? [index]
        : [],
    );
    result[noun] = coverage.some(({ placement, visible }) => {
      if (!indices.includes(placement.subject) || visible.length < 40) return false;
      let changed = 0;
      for (const [x, y] of visible) {
        const at = (y * SIZE + x) * 3;
        const difference =
          Math.abs(full.data[at]! - bare.data[at]!) +
          Math.abs(full.data[at + 1]! - bare.data[at + 1]!) +
          Math.abs(full.data[at + 2]! - bare.data[at + 2]!);
        if (difference > 24) changed++;
      }
      return changed >= visible.length * 0.5;
    });
  }
  return result;
}

describe('the offline engine draws the subjects a prompt asks for', () => {
  it('keeps a fixed set of 100 prompts across the six languages', () => {
    expect(PROMPTS).toHaveLength(100);
    expect(new Set(PROMPTS.map(([, language]) => language))).toEqual(
      new Set(['en', 'ru', 'de', 'uk', 'kk', 'az']),
    );
  });

  it('draws every main noun of at least 85 of the 100 prompts, in the plan and in the pixels', async () => {
    const failures: string[] = [];
    for (const [prompt, language, nouns] of PROMPTS) {
      const text = english(prompt, language);
      const drawn = await drawnNouns(text, nouns);
      const missing = nouns.filter((noun) => !drawn[noun]);
      if (missing.length > 0) failures.push(`${prompt} (${text}): ${missing.join(', ')}`);
    }
    expect(failures.length, failures.join('\n')).toBeLessThanOrEqual(15);
  }, 60_000);

  it('plans each prompt the same way for the same seed', () => {
    for (const [prompt, language] of PROMPTS.slice(0, 40)) {
      const text = english(prompt, language);
      const once = { subjects: planFor(text).subjects, boxes: subjectPlacements(planFor(text)) };
      const again = { subjects: planFor(text).subjects, boxes: subjectPlacements(planFor(text)) };
      expect(again).toEqual(once);
    }
  });
});
