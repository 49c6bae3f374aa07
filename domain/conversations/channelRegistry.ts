import type { Orm } from '../../db/orm';
import type { Config } from '../../platform/config';
import { createWhatsAppAdapter } from '../whatsapp/adapter';
import type { Channel, ChannelAdapter } from './channels';

/** What adapters are built from (the worker's dependencies). */
export interface ChannelAdapterDeps {
  orm: Orm;
  config: Config;
}

/**
 * Every channel adapter, in one list: an asynchronous channel adds its factory here. A channel without
 * an adapter is synchronous: its reply goes back in the response to the inbound request.
 */
export function createChannelAdapters(deps: ChannelAdapterDeps): ChannelAdapter[] {
  return [createWhatsAppAdapter(deps)];
}

/** The adapter of a channel, if it has one. */
export function adapterFor(adapters: ChannelAdapter[], channel: Channel): ChannelAdapter | undefined {
  return adapters.find((a) => a.channel === channel);
}
