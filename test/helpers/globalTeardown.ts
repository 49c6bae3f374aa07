import { teardown as teardownDns } from './globalDns';
import { teardownBundle } from './globalBundle';

export default async function teardown(): Promise<void> {
  await Promise.all([teardownDns(), teardownBundle()]);
}
