import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { callApi, type TestUser } from './accounts.js';
import { e2eEnv } from './env.js';

/** What the e2e server is started with (e2e/run.ts): prices, welcome credits, the free tier. */
export const E2E_SETTINGS = {
  welcomeCredits: 4,
  prices: { simple: 1, editing: 1, styling: 3, faceSwap: 1, modelTraining: 2, videoPerSecond: 1 },
  freeDailyPhotos: 3,
  freeDelaySeconds: 8,
  uploadMaxMb: 2,
} as const;

/**
 * A test photo drawn on the fly (never committed): a gradient sky, a sun and a dark band, so
 * styling and editing have edges and colours to work on.
 */
export async function makeTestPhoto(width = 800, height = 600): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#3b82f6"/><stop offset="1" stop-color="#f59e0b"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 4}" fill="#10b981"/>
    <rect x="${width / 10}" y="${height * 0.7}" width="${width * 0.8}" height="${height / 5}" fill="#111827"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

const bearer = (user: Pick<TestUser, 'access'>) => `Bearer ${user.access}`;

export async function apiUpload(user: TestUser, photo: Buffer): Promise<{ uuid: string }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
  const response = await fetch(new URL('/api/uploads/', e2eEnv.baseUrl), {
    method: 'POST',
    headers: { authorization: bearer(user) },
    body: form,
  });
  if (response.status !== 201) throw new Error(`upload: ${response.status} ${await response.text()}`);
  return (await response.json()) as { uuid: string };
}

export interface ApiGeneration {
  uuid: string;
  status: number;
  progress: number;
  seed: number;
  result: {
    url: string;
    download_url: string;
    width: number;
    height: number;
    notes: Array<{ code: string | null; text: string }>;
  } | null;
  error_code: string | null;
  refunded: boolean;
}

export async function apiGenerate(user: TestUser, body: Record<string, unknown>): Promise<ApiGeneration> {
  const created = await callApi<ApiGeneration>('/api/generations/', {
    body,
    authorization: bearer(user),
  });
  if (created.status !== 201) throw new Error(`generate: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

/** Waits until the generation has ended (the local engine takes a few seconds). */
export async function apiWaitForGeneration(
  user: Pick<TestUser, 'access'>,
  uuid: string,
  timeoutMs = 30_000,
  authorization = bearer(user),
): Promise<ApiGeneration> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { body } = await callApi<ApiGeneration>(`/api/generations/${uuid}/`, { authorization });
    if ([100, -100, -200].includes(body.status)) return body;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`generation ${uuid} did not end in time`);
}

export async function apiBalance(user: TestUser): Promise<number> {
  const { body } = await callApi<{ balance: number }>('/api/credits/', { authorization: bearer(user) });
  return body.balance;
}

/**
 * Records every value the page's generation progress bar shows, from the first paint on (a
 * MutationObserver installed before any script runs), so a test can tell what the user saw.
 */
export async function recordProgress(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __progressSeen: number[] };
    w.__progressSeen = [];
    const read = () => {
      const bar = document.querySelector('[data-testid="generation-progressbar"]');
      const value = bar ? Number(bar.getAttribute('aria-valuenow')) : NaN;
      if (Number.isFinite(value) && w.__progressSeen.at(-1) !== value) w.__progressSeen.push(value);
    };
    new MutationObserver(read).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    });
  });
}

export const progressSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { __progressSeen: number[] }).__progressSeen);

/** The PNG signature: the downloaded original must be a real PNG. */
export const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);
