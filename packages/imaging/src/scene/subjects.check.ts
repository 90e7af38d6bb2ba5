import sharp from 'sharp';
import { createRng, mixSeeds } from '../raster/random.js';
import type { ScenePlan } from './scene.models.js';
import { hashName, layoutFor, svgOf } from './scene.render.js';
import { n } from './scene.svg.js';
import { ART_GRID, subjectSvgBody } from './subjects.art.js';
import { composeSubjects, type Placement } from './subjects.compose.js';

/**
 * Where the plan's subjects land in its picture: each placement's box, and how many of its pixels
 * stay visible once everything drawn in front of it is drawn (an id buffer: each placement painted
 * in its own flat colour, back to front). Tests use it to prove a subject is in the picture, not
 * just in the plan.
 */
export function subjectPlacements(plan: ScenePlan): Placement[] {
  const layout = layoutFor(plan, createRng(mixSeeds(plan.renderSeed, hashName('layout'))));
  return composeSubjects(plan, layout);
}

export interface SubjectCoverage {
  placement: Placement;
  /** Pixels of the picture where this placement is the front-most thing drawn. */
  visible: Array<[x: number, y: number]>;
}

export async function subjectCoverage(plan: ScenePlan): Promise<SubjectCoverage[]> {
  const placements = subjectPlacements(plan);
  const defs: string[] = [];
  const body: string[] = [];
  placements.forEach((placement, index) => {
    const { x, y, w, h } = placement.box;
    const id = `id${index}`;
    defs.push(
      `<filter id="${id}" x="0" y="0" width="1" height="1" color-interpolation-filters="sRGB"><feFlood flood-color="rgb(${(index + 1) * 8},0,0)"/>` +
        '<feComposite in2="SourceAlpha" operator="in"/><feComponentTransfer><feFuncA type="discrete" tableValues="0 1"/></feComponentTransfer></filter>',
    );
    const flip = placement.flip ? ` transform="translate(${n(2 * x + w)} 0) scale(-1 1)"` : '';
    body.push(
      `<g filter="url(#${id})"${flip}><svg x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" viewBox="0 0 ${ART_GRID} ${ART_GRID}">` +
        `${subjectSvgBody(plan.subjects[placement.subject]!.art)}</svg></g>`,
    );
  });
  const { data, info } = await sharp(svgOf(plan, [{ defs, body }]))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const coverage: SubjectCoverage[] = placements.map((placement) => ({ placement, visible: [] }));
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const at = (y * info.width + x) * info.channels;
      if (data[at + 3]! < 250) continue;
      const index = Math.round(data[at]! / 8) - 1;
      if (index >= 0 && index < coverage.length) coverage[index]!.visible.push([x, y]);
    }
  }
  return coverage;
}
