/**
 * Local generation time per image of the simple mode, with the prompt's subjects drawn against the
 * same scenes without them (the path before subjects existed), measured in the same run,
 * interleaved, at the engine's 1024 px: `npm run bench:offline-drawing` prints the medians and
 * their ratio (goal: at most 1.5×). `SHEET_DIR=<dir>` also writes a contact sheet of the pictures
 * with their prompts there (contact-sheet.png).
 */
import path from 'node:path';
import sharp from 'sharp';
import { encodePng, planScene, renderScene } from '@mirra/imaging';

const PROMPTS = [
  'a red fox in the snow',
  'a cozy cafe in Paris at night, rain, neon reflections',
  'three red balloons over a lighthouse',
  'a cat sitting on a sofa next to a window',
  'two dogs playing on the beach at sunset',
  'an astronaut and a rocket in space',
  'a white horse next to a house in the mountains',
  'five yellow ducks on a lake',
  'a dragon flying over a castle',
  'a blue car in the city at night',
];
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const SEED = 7;

/** One simple-mode picture as the local engine makes it: plan, render, PNG. */
async function picture(prompt: string, withSubjects: boolean): Promise<{ ms: number; png: Buffer }> {
  const started = performance.now();
  const plan = planScene(prompt, SEED);
  const image = await renderScene(withSubjects ? plan : { ...plan, subjects: [] });
  const png = await encodePng(image).toBuffer();
  return { ms: performance.now() - started, png };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// The art and its vocabulary load once per process (per pool thread): timed apart, not per image.
const loadStarted = performance.now();
planScene('a fox', 1);
console.log(`art and vocabulary loaded once per process: ${(performance.now() - loadStarted).toFixed(0)} ms`);
await picture(PROMPTS[0]!, true);

const before: number[] = [];
const after: number[] = [];
const pictures = new Map<string, Buffer>();
for (let round = 0; round < REPEATS; round++) {
  for (const prompt of PROMPTS) {
    // Alternate which goes first, so neither always runs on a warmer cache.
    const order = round % 2 === 0 ? [false, true] : [true, false];
    for (const withSubjects of order) {
      const { ms, png } = await picture(prompt, withSubjects);
      (withSubjects ? after : before).push(ms);
      if (withSubjects) pictures.set(prompt, png);
    }
  }
}
const base = median(before);
const drawn = median(after);
console.log(`scene without subjects (before): median ${base.toFixed(0)} ms per image`);
console.log(`scene with subjects (after):     median ${drawn.toFixed(0)} ms per image`);
console.log(`ratio after/before: ${(drawn / base).toFixed(2)}× (goal ≤ 1.5×)`);

const sheetDir = process.env.SHEET_DIR;
if (sheetDir) {
  const tile = 360;
  const caption = 56;
  const columns = 5;
  const rows = Math.ceil(PROMPTS.length / columns);
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const tiles = await Promise.all(
    PROMPTS.map(async (prompt, index) => {
      const words = prompt.split(' ');
      const lines: string[] = [''];
      for (const word of words) {
        if ((lines.at(-1)! + ' ' + word).length > 40) lines.push(word);
        else lines[lines.length - 1] = `${lines.at(-1)} ${word}`.trim();
      }
      const text = Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${tile}" height="${caption}">` +
          `<rect width="100%" height="100%" fill="#111"/>` +
          lines
            .map(
              (line, i) =>
                `<text x="8" y="${22 + i * 20}" font-family="sans-serif" font-size="16" fill="#eee">${escape(line)}</text>`,
            )
            .join('') +
          '</svg>',
      );
      return [
        {
          input: await sharp(pictures.get(prompt)!).resize(tile, tile).toBuffer(),
          left: (index % columns) * tile,
          top: Math.floor(index / columns) * (tile + caption),
        },
        {
          input: text,
          left: (index % columns) * tile,
          top: Math.floor(index / columns) * (tile + caption) + tile,
        },
      ];
    }),
  );
  const file = path.join(sheetDir, 'contact-sheet.png');
  await sharp({
    create: { width: columns * tile, height: rows * (tile + caption), channels: 3, background: '#000' },
  })
    .composite(tiles.flat())
    .png()
    .toFile(file);
  for (const [index, prompt] of PROMPTS.entries()) {
    await sharp(pictures.get(prompt)!).toFile(path.join(sheetDir, `picture-${index + 1}.png`));
  }
  console.log(`contact sheet: ${file}`);
}
