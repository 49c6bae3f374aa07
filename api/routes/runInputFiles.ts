import { z } from 'zod';
import { pageQuery } from '../../domain/shared/pagination';
import { recentInputFiles } from '../../domain/runs/inputFiles';
import { fileOut } from '../schemas/files';
import { defineRoute, type RouteDef } from './route';

const inputFileOut = fileOut.extend({ lastUsedAt: z.iso.datetime(), runId: z.uuid() });

/** `GET /v1/runs/input-files` (`runs:read`, docs/api/runs.md#recent-input-files). */
export function runInputFileRoutes(): RouteDef[] {
  return [
    defineRoute<undefined, z.infer<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/runs/input-files',
      summary: 'The files most recently used as run inputs, newest use first, each once',
      tag: 'runs',
      access: { auth: 'any', scope: 'runs:read' },
      query: pageQuery,
      responses: {
        200: {
          description: 'A page of files',
          schema: z.object({ files: z.array(inputFileOut), nextCursor: z.string().nullable() }),
        },
      },
      async handler(ctx, { query }) {
        ctx.body = await recentInputFiles(ctx.state.em, ctx.state.identity!.workspaceId, query);
      },
    }),
  ];
}
