import { z } from 'zod';

/** `/<uuid>/` in a path: anything but a UUID is answered like a missing record. */
export const ZUuidParams = z.object({ uuid: z.uuid({ error: 'Not found.' }) });
