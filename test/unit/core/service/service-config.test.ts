// A service refuses, at start, a batch size its row keys or its upload's address index could not hold.
import { describe, expect, it } from 'vitest';
import { serviceConfig } from '../../../../electron/core/service/service-config.ts';

describe('serviceConfig', () => {
  it('takes batches of up to 2^31 - 1 addresses and refuses larger ones', () => {
    expect(serviceConfig({ dataDir: '/tmp/unused', maxBatchAddresses: 2 ** 31 - 1 }).maxBatchAddresses).toBe(
      2 ** 31 - 1,
    );
    expect(() => serviceConfig({ dataDir: '/tmp/unused', maxBatchAddresses: 2 ** 31 })).toThrow(
      'at most 2147483647 addresses',
    );
  });
});
