import type { SourceDeps } from '../../../domain/dataSources/connection';
import type { Config } from '../../../platform/config';
import { createResolver } from '../../../platform/net/dnsServers';
import { createSecretBox } from '../../../platform/secrets';

/** What the data-source routes need to reach a source: the secrets' box and the outbound guard's settings. */
export function sourceDeps(config: Config): SourceDeps {
  return {
    box: createSecretBox(config.secretKeys),
    allowPrivate: config.allowPrivateEgress,
    resolver: createResolver(config.dnsServers),
    maxReadBytes: config.maxReadBytes,
  };
}
