/** Where Replicate delivers its webhooks (the app's route, and what each prediction names). */
export const REPLICATE_WEBHOOK_PATH = '/api/engines/replicate/webhook/';
