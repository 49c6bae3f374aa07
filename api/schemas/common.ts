import { z } from 'zod';

export const uuid = z.uuid();
export const idParams = z.object({ id: uuid });
export const timestamp = z.iso.datetime();
