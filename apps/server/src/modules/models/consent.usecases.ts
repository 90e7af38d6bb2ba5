import {
  consentPagePath,
  type TConsent,
  type TConsentCheckResult,
  type TConsentLink,
} from '@mirra/contracts';
import type { DbOrTx } from '../../shared/db/client.js';
import { AppError } from '../../shared/errors.js';
import { isUuid } from '../uploads/index.js';
import { findUserById, type UserRow } from '../users/index.js';
import {
  consentLinkSeconds,
  consentPageStatus,
  consentSigningKey,
  readConsentToken,
  signConsentToken,
} from './consent.models.js';
import { consentRepository, type ConsentRow } from './consent.repository.js';
import { checkFacesOfModel, type LiveCheckFrame } from './live-check.usecases.js';
import type { ModelsDeps } from './models.deps.js';
import { modelNotFound } from './models.errors.js';
import { modelsRepository } from './models.repository.js';
import { thumbnailUrl } from './models.serializers.js';
import { deleteModelWhere } from './models.usecases.js';

/**
 * Consent for a model of someone else: the owner sends a signed link; the person opens it without
 * an account, sees who asks and for what, and confirms with the same live check an owner takes of
 * themselves (their frames must match the model's photos). Training waits for it. The person can
 * withdraw by the same link at any time: the model is deleted and every post made with it is
 * taken down, in one transaction, and the consent row stays as the record. Withdrawal is final.
 */

const consentNotFound = () => new AppError({ code: 'consents.not_found', detail: 'Not found.' });

const consentExpired = () =>
  new AppError({
    code: 'consents.expired',
    detail: 'This link has expired. Ask the person who sent it for a new one.',
  });

const consentClosed = () =>
  new AppError({
    code: 'consents.closed',
    detail: 'There is nothing to confirm any more: the model was deleted or consent was withdrawn.',
  });

const signingKey = (deps: Pick<ModelsDeps, 'linkSecret'>) => consentSigningKey(deps.linkSecret);

/** A freshly signed link for the owner to send; earlier links keep working until they expire. */
export async function createConsentLink(
  deps: ModelsDeps,
  user: UserRow,
  uuid: string,
): Promise<TConsentLink> {
  const model = isUuid(uuid) ? await modelsRepository.findOwned(deps.db, user.id, uuid) : undefined;
  if (!model) throw modelNotFound();
  if (model.subject !== 'other') {
    throw new AppError({
      code: 'models.consent_not_needed',
      detail: 'This model is of yourself: you confirm it with your own live check.',
    });
  }
  const consent = await consentRepository.findByModel(deps.db, model.id);
  if (!consent || consent.status === 'withdrawn') throw consentClosed();
  const expiresAt = new Date(deps.now().getTime() + consentLinkSeconds * 1000);
  await consentRepository.update(deps.db, consent.id, { linkExpiresAt: expiresAt });
  const token = signConsentToken(signingKey(deps), consent.uuid, expiresAt);
  return {
    url: `${deps.config.publicUrl}${consentPagePath(token)}`,
    expires_at: expiresAt.toISOString(),
    status: consent.status,
  };
}

/** The consent a link names, as its page shows it. */
export async function getConsent(deps: ModelsDeps, token: string): Promise<TConsent> {
  const { consent, link } = await consentOfToken(deps, token);
  return consentJson(deps, consent.uuid, link);
}

/**
 * The person's live check through the link: the model's own check (same frames, rules and
 * threshold against the model's photos); a passed one confirms the consent. A link past its
 * expiry cannot confirm (the owner sends a new one); a consent already confirmed may check again
 * while the model is untrained (after the owner changed its photos).
 */
export async function takeConsentLiveCheck(
  deps: ModelsDeps,
  token: string,
  readFrames: () => Promise<LiveCheckFrame[]>,
): Promise<TConsentCheckResult> {
  const { consent, link } = await consentOfToken(deps, token);
  if (consent.status === 'withdrawn' || consent.modelId === null) throw consentClosed();
  if (link.isExpired) throw consentExpired();
  const model = await modelsRepository.findById(deps.db, consent.modelId);
  if (!model) throw consentClosed();
  const verdict = await checkFacesOfModel(deps, model, readFrames);
  if (verdict.passed && consent.status === 'pending') {
    await consentRepository.update(deps.db, consent.id, { status: 'confirmed', confirmedAt: deps.now() });
    deps.logger.info({ consent: consent.uuid, model: model.uuid }, 'model consent confirmed');
  }
  return { ...verdict, consent: await consentJson(deps, consent.uuid, link) };
}

/**
 * Withdraws (or, before confirming, refuses) consent for good, by the link: in one transaction the
 * consent turns `withdrawn` with the time and how many posts went, every post made with the
 * model is taken down, and the model is deleted the way its owner would delete it (photos, check,
 * files; a training under way stopped and refunded). Withdrawing again answers the same.
 */
export async function withdrawConsent(deps: ModelsDeps, token: string): Promise<TConsent> {
  const { consent, link } = await consentOfToken(deps, token);
  if (consent.status !== 'withdrawn') {
    const now = deps.now();
    if (consent.modelId === null) {
      // The owner deleted the model already: only the record changes.
      await deps.db.transaction(async (tx) => {
        const locked = await consentRepository.lockByUuid(tx, consent.uuid);
        if (locked?.status === 'withdrawn') return;
        await consentRepository.update(tx, consent.id, {
          status: 'withdrawn',
          withdrawnAt: now,
          postsRemoved: 0,
        });
      });
    } else {
      const modelId = consent.modelId;
      await deleteModelWhere(
        deps,
        async (tx) => {
          const locked = await consentRepository.lockByUuid(tx, consent.uuid);
          if (!locked || locked.status === 'withdrawn' || locked.modelId !== modelId) return undefined;
          return modelsRepository.lockById(tx, modelId);
        },
        async (tx, model) => {
          const removed = await deps.modelPosts.removePostsMadeWith(tx, model.uuid);
          await consentRepository.update(tx, consent.id, {
            status: 'withdrawn',
            withdrawnAt: now,
            postsRemoved: removed,
          });
          deps.logger.info(
            { consent: consent.uuid, model: model.uuid, owner: model.userId, postsRemoved: removed },
            'model consent withdrawn',
          );
        },
      ).catch((error: unknown) => {
        // Withdrawn (or deleted) at the same moment by another request: answered as it stands.
        if (!(error instanceof AppError && error.code === 'models.not_found')) throw error;
      });
    }
  }
  return consentJson(deps, consent.uuid, link);
}

/**
 * Whether the person a model was of withdrew consent (its pictures are never published again).
 * Given a transaction, the answer holds until it ends (the consent row is locked for share).
 */
export async function isConsentWithdrawn(
  deps: Pick<ModelsDeps, 'db'>,
  modelUuid: string,
  tx?: DbOrTx,
): Promise<boolean> {
  return isUuid(modelUuid) && consentRepository.isWithdrawn(tx ?? deps.db, modelUuid, Boolean(tx));
}

interface LinkState {
  expiresAt: Date;
  /** Past its expiry the link no longer confirms; it still withdraws. */
  isExpired: boolean;
}

async function consentOfToken(
  deps: ModelsDeps,
  token: string,
): Promise<{ consent: ConsentRow; link: LinkState }> {
  const read = readConsentToken(signingKey(deps), token);
  if (!read) throw consentNotFound();
  const row = await consentRepository.findForPage(deps.db, read.consentUuid);
  if (!row) throw consentNotFound();
  return {
    consent: row.consent,
    link: { expiresAt: read.expiresAt, isExpired: read.expiresAt.getTime() <= deps.now().getTime() },
  };
}

async function consentJson(deps: ModelsDeps, consentUuid: string, link: LinkState): Promise<TConsent> {
  const row = await consentRepository.findForPage(deps.db, consentUuid);
  if (!row) throw consentNotFound();
  const { consent } = row;
  const owner = await findUserById(deps.db, consent.ownerId);
  const status = consentPageStatus(consent);
  const coverKey =
    consent.modelId !== null && status !== 'withdrawn'
      ? await consentRepository.coverKey(deps.db, consent.modelId)
      : null;
  return {
    status,
    owner_name: owner ? `${owner.firstName} ${owner.lastName}`.trim() || owner.username : '',
    model_name: consent.modelName,
    cover_url: coverKey ? thumbnailUrl(deps.mediaUrls, coverKey, deps.now()) : null,
    photo_count: row.referenceCount ?? 0,
    expires_at: link.expiresAt.toISOString(),
    is_expired: link.isExpired,
    confirmed_at: consent.confirmedAt?.toISOString() ?? null,
    withdrawn_at: consent.withdrawnAt?.toISOString() ?? null,
  };
}
