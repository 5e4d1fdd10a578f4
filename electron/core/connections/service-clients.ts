// The services the app reaches, made on first use: Sift's own service is started in-process the first
// time a job or a check needs it, so a fresh install works with no account.
import { AppError } from '../../common/app-error.ts';
import { createServiceClient, type ServiceClient } from '../client/service-client.ts';
import { startEmbeddedService, type EmbeddedService } from '../service/embedded-service.ts';
import type { ServiceConfig } from '../service/service-config.ts';
import { embeddedSandbox, type ServiceClients, type ServiceRef } from './service-ref.ts';

export function createServiceClients(options: { dataDir: string; service?: Partial<ServiceConfig> }): ServiceClients {
  let embedded: Promise<EmbeddedService> | undefined;
  let sandbox: Promise<ServiceClient> | undefined;
  const embeddedService = () => (embedded ??= startEmbeddedService(options.dataDir, options.service));
  return {
    current: async () => embeddedSandbox,
    async clientFor(ref: ServiceRef) {
      if (ref.kind === 'embedded' && ref.mode === 'sandbox') {
        return (sandbox ??= embeddedService().then((service) =>
          createServiceClient({ baseUrl: service.baseUrl, apiKey: service.apiKey }),
        ));
      }
      throw new AppError('not_found', 'The service this list was sent to is not set up in Settings any more.');
    },
    async close() {
      await (await embedded)?.close();
    },
  };
}
