import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { loadTestFaces, makePhotoSet } from '@mirra/imaging/testing';
import { callApi, type TestUser } from './accounts.js';
import { e2eEnv } from './env.js';

export interface FacePhotoFiles {
  dir: string;
  /** Photos of one person (variants of a public-domain portrait), enough to train a model. */
  faces: string[];
  /** A photo with no face in it (a coffee cup). */
  noFace: string;
  /** One more photo of the same person, to add to a trained model. */
  extraFace: string;
  remove(): Promise<void>;
}

/**
 * Real face photos written to a temporary folder for the file inputs: the server's test portraits
 * from Debian packages (packages/imaging/src/testing/test-faces.ts), nothing committed to the repository.
 */
export async function writeFacePhotos(count = 15): Promise<FacePhotoFiles> {
  const portraits = await loadTestFaces();
  const photos = await makePhotoSet(portraits.astronaut, count + 1);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mirra-e2e-faces-'));
  const faces: string[] = [];
  for (const [index, photo] of photos.entries()) {
    const file = path.join(dir, `me-${String(index + 1).padStart(2, '0')}.jpg`);
    await writeFile(file, photo);
    faces.push(file);
  }
  const noFace = path.join(dir, 'coffee.png');
  await writeFile(noFace, portraits.coffee);
  return {
    dir,
    faces: faces.slice(0, count),
    extraFace: faces[count]!,
    noFace,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * Records, from the first paint on, every state each chosen photo's tile showed (queued,
 * uploading, checking, then good or problem) and the progress values of its own bar, and every
 * value of the training bar: uploads and training on this machine may be too quick to catch by
 * polling.
 */
export async function recordModelScreens(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as {
      __photoStates: Record<string, string[]>;
      __photoProgress: Record<string, number[]>;
      __trainingSeen: number[];
    };
    w.__photoStates = {};
    w.__photoProgress = {};
    w.__trainingSeen = [];
    const push = <T>(list: T[], value: T) => {
      if (list.at(-1) !== value) list.push(value);
    };
    const read = () => {
      for (const tile of Array.from(
        document.querySelectorAll<HTMLElement>('[data-testid="model-photo"][data-name]'),
      )) {
        const name = tile.dataset.name!;
        push((w.__photoStates[name] ??= []), tile.dataset.state ?? '');
        const bar = tile.querySelector('[data-testid="model-photo-progress"]');
        if (bar) push((w.__photoProgress[name] ??= []), Number(bar.getAttribute('aria-valuenow')));
      }
      const training = document.querySelector('[data-testid="training-progressbar"]');
      if (training) push(w.__trainingSeen, Number(training.getAttribute('aria-valuenow')));
    };
    new MutationObserver(read).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow', 'data-state'],
    });
  });
}

export const photoStatesSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { __photoStates: Record<string, string[]> }).__photoStates);
export const photoProgressSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { __photoProgress: Record<string, number[]> }).__photoProgress);
export const trainingProgressSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { __trainingSeen: number[] }).__trainingSeen);

const bearer = (user: Pick<TestUser, 'access'>) => `Bearer ${user.access}`;

/** A model with these photos, made over the API (for tests about what comes after the uploads). */
export async function apiModelWithPhotos(
  user: TestUser,
  files: readonly string[],
  name = 'Me',
  subject: 'self' | 'other' = 'self',
): Promise<string> {
  const created = await callApi<{ uuid: string }>('/api/models/', {
    body: { name, category: 'female', subject },
    authorization: bearer(user),
  });
  if (created.status !== 201)
    throw new Error(`create model: ${created.status} ${JSON.stringify(created.body)}`);
  const form = new FormData();
  for (const file of files) {
    form.append(
      'files',
      new Blob([new Uint8Array(await readFile(file))], { type: 'image/jpeg' }),
      path.basename(file),
    );
  }
  const response = await fetch(new URL(`/api/models/${created.body.uuid}/photos/`, e2eEnv.baseUrl), {
    method: 'POST',
    headers: { authorization: bearer(user) },
    body: form,
  });
  if (response.status !== 201) throw new Error(`model photos: ${response.status} ${await response.text()}`);
  return created.body.uuid;
}
