// Bad: a page makes requests itself, with a feature's API object and with the client.
import { alphaApi } from '../../features/alpha';
import { api } from '../../lib/api-client';

export const load = () => Promise.all([alphaApi.get(), api.get('/api/alpha/')]);
