import { setup as setupDns } from './globalDns';
import { setupBundle } from './globalBundle';

export default async function setup(): Promise<void> {
  await Promise.all([setupDns(), setupBundle()]);
}
