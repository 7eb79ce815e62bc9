// A guest's try, read by its enhancement id (the guest's only handle on it). The specification
// gives it two addresses, the image's status and the payment's view of it; both answer this one
// route's answer, whether the try is paid included.
import { z } from 'zod';
import { call } from '@flatlay/platform';
import type { image } from '@flatlay/proto';
import { refusal } from '../api/responses.js';
import { route, type ApiRoute } from '../api/route.js';
import type { ServiceClients } from '../clients.js';
import { AnonymousStatusBody, anonymousJson } from './image-bodies.js';

/** The `{id}` of every operation on one image or guest's try. */
export const imageIdParams = z.object({
  id: z.uuid({ error: 'id must be an image id (a UUID)' }).meta({ description: 'The image (or enhancement) id' }),
});

/** The image service's view of a guest's try (NOT_FOUND when there is none). */
export const guestTryOf =
  (clients: ServiceClients) =>
  async (enhancementId: string): Promise<image.GetAnonymousStatusResponse> => {
    const c = clients.image();
    return call(c, c.getAnonymousStatus, { enhancementId });
  };

export function guestTryRoute(
  clients: ServiceClients,
  spec: { path: string; tags: string[]; summary: string },
): ApiRoute {
  const guestTry = guestTryOf(clients);
  return route({
    method: 'get',
    ...spec,
    access: 'none',
    request: { params: imageIdParams },
    responses: {
      200: { description: 'The enhancement', schema: AnonymousStatusBody },
      404: refusal('NOT_FOUND', 'Image not found', "No guest's try with this id"),
    },
    async handle(_req, res, { params }) {
      res.json(anonymousJson(await guestTry(params.id)));
    },
  });
}
