import type { SharedDeps } from '../../shared/deps.js';
import type { SessionCache, TokenService } from '../auth/index.js';
import type { FaceAnalyzer } from '../faces/index.js';
import type { GenerationEvents } from '../generations/index.js';
import type { TelegramBotApi } from '../telegram/index.js';

/** What the models module is handed at start: its slice of the app's dependencies. */
export interface ModelsDeps extends Pick<
  SharedDeps,
  'config' | 'db' | 'logger' | 'linkSecret' | 'mailer' | 'rateLimiter' | 'storage' | 'mediaUrls' | 'now'
> {
  tokens: TokenService;
  sessionCache: SessionCache;
  /** Null when no bot token is configured: Telegram features answer `auth.telegram_unavailable`. */
  telegramBot: TelegramBotApi | null;
  /** Live training progress of digital models (same event shape, own channel). */
  modelEvents: GenerationEvents;
  /** Face detection, mesh and descriptor (models load once per process, on first use). */
  faceAnalyzer: FaceAnalyzer;
  /** Providers that train LoRAs, in ENGINE_TRAINING's order (`local` alone: none). */
  modelTrainers: ModelTrainer[];
}

/** A provider's LoRA of a digital model, as its face-photo engine takes it. */
export interface ProviderLora {
  url: string;
  triggerWord: string;
}

/** Photos a provider trains a digital model's LoRA on: the aligned face crops. */
export interface ModelTrainingRequest {
  modelUuid: string;
  triggerWord: string;
  photos: Array<{ name: string; data: Buffer; contentType: string }>;
}

export type ModelTrainingPoll =
  | { kind: 'running'; progress: number }
  | { kind: 'done'; loraUrl: string; costUsd: number | null }
  | { kind: 'failed'; refused: boolean; message: string };

/**
 * A provider that trains LoRAs (ENGINE_TRAINING). `submit` hands back the provider's job id at
 * once; the job is stored on the model and polled, so a restarted worker resumes it. A submit that
 * throws an error with `code` `engine.unavailable` or `engine.timeout` is an outage: the next
 * trainer of the list is tried.
 */
export interface ModelTrainer {
  readonly name: string;
  submit(request: ModelTrainingRequest, signal: AbortSignal): Promise<string>;
  poll(jobId: string, signal: AbortSignal): Promise<ModelTrainingPoll>;
}
