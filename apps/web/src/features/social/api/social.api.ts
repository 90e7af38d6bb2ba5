import { api } from '../../../lib/api-client';
import { routes } from '@mirra/contracts';

export const socialKeys = {
  profile: (uuid: string) => ['profiles', uuid] as const,
};

export const socialApi = {
  profile: (uuid: string) => api(routes.social.profile, { params: { uuid } }),
  subscribe: (uuid: string) => api(routes.social.subscribe, { params: { uuid } }),
  unsubscribe: (uuid: string) => api(routes.social.unsubscribe, { params: { uuid } }),
};
