import type { SiftBridge } from '../../electron/common/sift-api.ts';

declare global {
  interface Window {
    /** Present under Electron (exposed by the preload); absent in a plain browser. */
    sift?: SiftBridge;
  }
}
