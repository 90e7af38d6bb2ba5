/**
 * Types of API bodies, inferred from the shared contracts: the web app never re-declares them.
 * Type-only imports, so no schema code reaches the browser bundle.
 */
import type { z } from 'zod';
import type {
  ZCreditBalance,
  ZCreditEntry,
  ZCreditHistory,
  ZGenerationEvent,
  ZGenerationList,
  ZGenerationResult,
  ZGeo,
  ZImageVariant,
  ZModelEvent,
  ZModelList,
  ZNotificationList,
  ZPostList,
  ZPrice,
  ZPromptHelperResult,
  ZRegisterResponse,
  ZReportBody,
  ZSaveState,
  ZSavedQueryString,
  ZSignInToken,
  ZSubscriptionState,
  ZTelegramAuthKey,
  ZTelegramTokenResponse,
  ZUnreadCount,
  ZUpdatePostBody,
} from '@mirra/contracts';

export type {
  ErrorCode,
  TCreateGenerationBody,
  TGeneration,
  TGenerationNote,
  TGenerationFailureReason,
  TGenerationMode,
  TGenerationStatus,
  TCreateModelBody,
  TModel,
  TModelCategory,
  TModelPhoto,
  TModelPhotoProblem,
  TModelPhotosUploaded,
  TModelPhotoTip,
  TModelPhotoVerdict,
  TModelSummary,
  TStyle,
  TUpload,
  TLoginBody,
  TProfileUpdateBody,
  TPublicConfig,
  TPublicUser,
  TRegisterBody,
  TTokenPair,
  TUser,
  TCreatePostBody,
  TNotification,
  TNotificationKind,
  TPost,
  TPostOfGeneration,
  TPostRecipe,
  TProfile,
  TReportReason,
} from '@mirra/contracts';
export type TGeo = z.infer<typeof ZGeo>;
export type TRegisterResponse = z.infer<typeof ZRegisterResponse>;
export type TSavedQueryString = z.infer<typeof ZSavedQueryString>;
export type TSignInToken = z.infer<typeof ZSignInToken>;
export type TTelegramAuthKey = z.infer<typeof ZTelegramAuthKey>;
export type TTelegramTokenResponse = z.infer<typeof ZTelegramTokenResponse>;
export type TCreditBalance = z.infer<typeof ZCreditBalance>;
export type TCreditEntry = z.infer<typeof ZCreditEntry>;
export type TCreditHistory = z.infer<typeof ZCreditHistory>;
export type TGenerationEvent = z.infer<typeof ZGenerationEvent>;
export type TGenerationList = z.infer<typeof ZGenerationList>;
export type TGenerationResult = z.infer<typeof ZGenerationResult>;
export type TImageVariant = z.infer<typeof ZImageVariant>;
export type TPrice = z.infer<typeof ZPrice>;
export type TPromptHelperResult = z.infer<typeof ZPromptHelperResult>;
export type TModelEvent = z.infer<typeof ZModelEvent>;
export type TModelList = z.infer<typeof ZModelList>;
export type TPostList = z.infer<typeof ZPostList>;
export type TUpdatePostBody = z.input<typeof ZUpdatePostBody>;
export type TReportBody = z.input<typeof ZReportBody>;
export type TSaveState = z.infer<typeof ZSaveState>;
export type TSubscriptionState = z.infer<typeof ZSubscriptionState>;
export type TNotificationList = z.infer<typeof ZNotificationList>;
export type TUnreadCount = z.infer<typeof ZUnreadCount>;
