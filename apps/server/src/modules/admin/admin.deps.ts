import type { GenerationsDeps } from '../generations/index.js';
import type { ModelsDeps } from '../models/index.js';
import type { PaymentsDeps } from '../payments/index.js';
import type { PostsDeps } from '../posts/index.js';

/**
 * What the staff console is handed: it acts through other modules' use cases, so its slice is
 * the union of theirs (posts for reviews, models for deleting a model, payments for refunds
 * through providers, the engines for listing and retrying failed generations; the rest need less).
 */
export type AdminDeps = PostsDeps & ModelsDeps & PaymentsDeps & Pick<GenerationsDeps, 'engines'>;
