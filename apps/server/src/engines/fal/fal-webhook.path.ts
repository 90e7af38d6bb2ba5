/** Where fal delivers its webhooks (the app's route, and what each submit names). */
export const FAL_WEBHOOK_PATH = '/api/engines/fal/webhook/';
