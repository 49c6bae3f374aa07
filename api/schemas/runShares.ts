import { z } from 'zod';
import { urlOut } from './text';
import { runOut } from './runs';

/** `POST /v1/runs/{id}/share`: the link and its token, shown once. */
export const runShareOut = z.object({ url: urlOut, token: z.string() }).strict();

/** `/shared/runs/{token}` path: any text, so an unknown token is 404 like any unknown id, never 400. */
export const sharedRunParams = z.object({ token: z.string() });

/** The public view of a shared run: exactly these keys (docs/api/runs.md#sharing-a-run). */
export const sharedRunOut = z
  .object({
    id: z.uuid(),
    status: runOut.shape.status,
    output: z.unknown(),
    steps: z.array(
      z
        .object({
          index: z.number().int(),
          type: z.string(),
          status: z.string(),
          startedAt: z.iso.datetime(),
          completedAt: z.iso.datetime().nullable(),
        })
        .strict(),
    ),
    completedAt: z.iso.datetime().nullable(),
  })
  .strict();

/** `GET /v1/runs/{id}/dashboard`: the shared view, and whether a shared link exists now. */
export const runDashboardOut = sharedRunOut.extend({ shared: z.boolean() }).strict();
