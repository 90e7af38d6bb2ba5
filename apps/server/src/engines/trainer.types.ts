/** A provider's LoRA of a digital model, as its face-photo engine takes it. */
export interface ProviderLora {
  url: string;
  triggerWord: string;
  /** What the training cost at the provider (USD), kept for the operator's margin; null when unknown. */
  costUsd?: number | null;
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
  /** How long its training usually takes, in seconds: what the app tells a person to expect. */
  readonly typicalSeconds: number;
  submit(request: ModelTrainingRequest, signal: AbortSignal): Promise<string>;
  poll(jobId: string, signal: AbortSignal): Promise<ModelTrainingPoll>;
}

/** What a finished provider training did to the digital model that owns it. */
export type ProviderTrainingOutcome = 'finished' | 'already finished' | 'unknown request';

/**
 * The port through which a trainer's webhook finishes the digital model whose training it names.
 * The models module implements it (the composition root hands it to the webhook routes): the
 * trainer's own status read says how it ended, and the model is completed or failed and refunded
 * exactly as the polling worker would, once — whichever of the two comes first.
 */
export interface ModelTrainingStore {
  finishProviderTraining(job: { provider: string; jobIdPrefix: string }): Promise<ProviderTrainingOutcome>;
}
