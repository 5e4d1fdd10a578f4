import { useEffect } from 'react';
import type { SettingsView } from '../../../../electron/common/contract.ts';
import { AppearancePicker } from '../../components/appearance-picker.tsx';
import { describeTest, HostedServiceForm } from '../../components/hosted-service-form.tsx';
import { VerdictCacheSettings } from '../../components/verdict-cache-settings.tsx';
import { ScoreWeightSettings } from '../../components/score-weight-settings.tsx';
import { go } from '../../stores/nav-store.ts';
import { settingsActions, useSettingsStore } from '../../stores/settings-store.ts';
import { useFocusHeading } from '../../use-focus-heading.ts';
import './settings-screen.css';

/** Where lists go now, in a sentence that never lets a demo pass for real checks. */
function describeCurrent(settings: SettingsView): string {
  const hosted = settings.hosted;
  if (settings.service === 'own') {
    return settings.ownMode === 'live'
      ? "Now: on this computer. Sift's own service asks each address's mail server."
      : "Now: a demo. Sift's own service with a sandbox key gives scripted verdicts: no mail server is asked.";
  }
  return `Now: ${hosted?.label} (${hosted?.mode === 'live' ? 'live' : 'sandbox: demo verdicts,'} key ${hosted?.maskedKey}).`;
}

/** Where lists are checked (the first-run question again, or a hosted service by URL and key), and appearance. */
export function SettingsScreen() {
  const settings = useSettingsStore((state) => state.settings);
  const test = useSettingsStore((state) => state.test);
  const notice = useSettingsStore((state) => state.notice);
  const error = useSettingsStore((state) => state.error);
  const heading = useFocusHeading<HTMLHeadingElement>('settings');

  useEffect(() => {
    void settingsActions.load();
  }, []);

  return (
    <section className="card card--padded form-screen" aria-labelledby="settings-heading">
      <h2 className="card__title" id="settings-heading" tabIndex={-1} ref={heading}>
        Settings
      </h2>
      <p className="visually-hidden" role="status">
        {notice ?? (test?.ok ? describeTest(test) : '')}
      </p>
      {notice && <p className="note">{notice}</p>}
      {error && (
        <div className="alert" role="alert">
          {error}
        </div>
      )}
      {settings && (
        <>
          <h3 className="section-title">Where lists are checked</h3>
          <p className="note" data-testid="current-service">
            {describeCurrent(settings)}
          </p>
          <button type="button" className="button settings-screen__change" onClick={() => go('setup')}>
            Change how addresses are checked
          </button>

          <h3 className="section-title">A hosted service</h3>
          <HostedServiceForm settings={settings} />
          <VerdictCacheSettings />
          <ScoreWeightSettings />
          <AppearancePicker />
        </>
      )}
    </section>
  );
}
