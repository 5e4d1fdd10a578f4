import type { ServiceOverview } from '../../../../electron/common/contract.ts';
import { formatCount } from '../../format.ts';
import { serviceActions, useServiceStore } from '../../stores/service-store.ts';
import { useStateResetBy } from '../../use-state-reset-by.ts';

/** Where the service runs, its credits and low-balance warning, and whether other tools here may use it. */
export function ServiceAccount({ overview, busy }: { overview: ServiceOverview; busy: boolean }) {
  const sharing = useServiceStore((state) => state.sharing);
  const lowThreshold = overview.account.lowThreshold;
  const [threshold, setThreshold] = useStateResetBy(() => lowThreshold?.toString() ?? '', lowThreshold);
  const [port, setPort] = useStateResetBy(() => (sharing ? String(sharing.port) : ''), sharing?.port);
  return (
    <>
      <p className="note">
        Running on this computer at {overview.baseUrl}. Credits: {formatCount(overview.account.balance)}, and{' '}
        {formatCount(overview.account.freeRemaining)} free checks left this month.
      </p>
      <form
        className="form-row"
        onSubmit={(event) => {
          event.preventDefault();
          void serviceActions.setThreshold(threshold.trim() === '' ? null : Number(threshold));
        }}
      >
        <label className="form-field">
          <span>Warn when credits fall below (empty: never)</span>
          <input type="number" min={0} step={1} value={threshold} onChange={(e) => setThreshold(e.target.value)} />
        </label>
        <button type="submit" className="button" disabled={busy}>
          Save threshold
        </button>
      </form>

      <h3 className="section-title">Other tools on this computer</h3>
      {sharing && (
        <form
          className="form-row"
          onSubmit={(event) => {
            event.preventDefault();
            void serviceActions.setSharing({ enabled: sharing.enabled, port: Number(port) });
          }}
        >
          <label className="choice">
            <input
              type="checkbox"
              checked={sharing.enabled}
              onChange={() => void serviceActions.setSharing({ enabled: !sharing.enabled, port: Number(port) })}
            />{' '}
            Listen on a fixed port, so other tools here can use it with one of these keys
          </label>
          <label className="form-field">
            <span>Port</span>
            <input type="number" min={1024} max={65535} value={port} onChange={(e) => setPort(e.target.value)} />
          </label>
          <button type="submit" className="button" disabled={busy}>
            Save port
          </button>
        </form>
      )}
    </>
  );
}
