import type { Channel, ChannelAdapter } from './channels';

/**
 * The adapters of the asynchronous channels. Conversations know no channel: each channel's area
 * registers its adapter from the composition root (docs/architecture.md, "Registries"). A channel
 * without an adapter is synchronous: its reply goes back in the response to the inbound request.
 */
export interface ChannelRegistry {
  /** @throws Error when the channel has an adapter already */
  register(channel: Channel, adapter: ChannelAdapter): void;
  /** The adapter of a channel, if it has one. */
  adapterFor(channel: Channel): ChannelAdapter | undefined;
}

export function createChannelRegistry(): ChannelRegistry {
  const adapters = new Map<Channel, ChannelAdapter>();
  return {
    register(channel, adapter) {
      if (adapters.has(channel)) throw new Error(`channel ${channel} has an adapter already`);
      adapters.set(channel, adapter);
    },
    adapterFor: (channel) => adapters.get(channel),
  };
}
