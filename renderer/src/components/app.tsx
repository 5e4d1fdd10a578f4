import { useEffect } from 'react';
import { UpdateNotice } from './update-notice.tsx';
import { sift } from '../bridge.ts';
import { CleanScreen } from '../screens/clean/clean-screen.tsx';
import { HistoryScreen } from '../screens/history/history-screen.tsx';
import { SettingsScreen } from '../screens/settings/settings-screen.tsx';
import { CheckScreen } from '../screens/check/check-screen.tsx';
import { ServiceScreen } from '../screens/service/service-screen.tsx';
import { SetupScreen } from '../screens/setup/setup-screen.tsx';
import { SuppressionScreen } from '../screens/suppression/suppression-screen.tsx';
import { RulesScreen } from '../screens/rules/rules-screen.tsx';
import { ConnectionsScreen } from '../screens/connections/connections-screen.tsx';
import { settingsActions, useSettingsStore } from '../stores/settings-store.ts';
import { AccountBadge } from './account-badge.tsx';
import { Port25Banner } from './port25-banner.tsx';
import { SenderBanner } from './sender-banner.tsx';
import { isFinishedPhase } from '../../../electron/common/job-phases.ts';
import { describePhase } from '../phase-words.ts';
import { appActions, useAppStore } from '../stores/app-store.ts';
import { cleanActions, useCleanStore } from '../stores/clean-store.ts';
import { go, screenTitles, useNavStore, type Screen } from '../stores/nav-store.ts';
import { AppNav } from './app-nav.tsx';
import { QuitButton } from './quit-button.tsx';
import { ScreenBoundary } from './screen-boundary.tsx';
import { useAppearance } from './appearance-picker.tsx';
import './app.css';

/** Every screen, one component each, shown under the header. */
const screenComponents: Record<Screen, () => React.JSX.Element | null> = {
  clean: CleanScreen,
  history: HistoryScreen,
  settings: SettingsScreen,
  check: CheckScreen,
  connections: ConnectionsScreen,
  suppression: SuppressionScreen,
  rules: RulesScreen,
  service: ServiceScreen,
  setup: SetupScreen,
};

/** A file dropped anywhere in the window opens, as on the drop zone (which handles its own drops first). */
function useWindowDrop() {
  useEffect(() => {
    const allow = (event: DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    const drop = (event: DragEvent) => {
      const file = event.dataTransfer?.files[0];
      if (event.defaultPrevented || !file) return;
      event.preventDefault();
      go('clean');
      void cleanActions.openFile(file);
    };
    document.addEventListener('dragover', allow);
    document.addEventListener('drop', drop);
    return () => {
      document.removeEventListener('dragover', allow);
      document.removeEventListener('drop', drop);
    };
  }, []);
}

export function App() {
  const screen = useNavStore((state) => state.screen);
  const Current = screenComponents[screen]!;

  useEffect(() => {
    void appActions.load();
    void cleanActions.loadRecent();
    void settingsActions.refreshAccount();
    // A first start asks how addresses are checked before anything gets a verdict (a list opened meanwhile wins).
    void settingsActions.load().then(() => {
      const unanswered = useSettingsStore.getState().settings?.checkingChosen === false;
      if (unanswered && useNavStore.getState().screen === 'clean' && !useCleanStore.getState().job) go('setup');
    });
    const stopProgress = sift.jobs.onDidProgress((payload) => {
      void cleanActions.progress(payload);
      // A job that ended spent credits: the badge shows what is left.
      if (isFinishedPhase(payload.phase)) void settingsActions.refreshAccount();
    });
    const stopOpen = sift.app.onDidRequestOpen((request) => {
      go('clean');
      void ('path' in request ? cleanActions.openPath(request.path) : cleanActions.openJob(request.jobId));
    });
    return () => {
      stopProgress();
      stopOpen();
    };
  }, []);
  useWindowDrop();
  useAppearance();

  return (
    <div className="app">
      <header className="app-header">
        <img className="app-header__logo" src="./icon.svg" alt="" width="28" height="28" />
        <h1 className="app-header__name">Sift</h1>
        <AppNav />
        <AccountBadge />
        <QuitButton />
      </header>
      <main className="app-main">
        <Port25Banner />
        <SenderBanner />
        {/* Keyed by screen, so moving to another screen starts it with no failure carried over. */}
        <ScreenBoundary key={screen} name={screenTitles[screen]} back={screen === 'clean' ? 'history' : 'clean'}>
          <Current />
        </ScreenBoundary>
      </main>
      <StatusBar />
    </div>
  );
}

function StatusBar() {
  const info = useAppStore((state) => state.info);
  const job = useCleanStore((state) => state.job);
  return (
    <footer className="status-bar">
      {/* A live region: a screen reader hears a list's phase change (sending, checking, done) wherever focus is. */}
      <span data-testid="activity" role="status">
        {job ? `${job.fileName}: ${describePhase(job.phase, job.error)}` : 'Ready'}
      </span>
      <span>
        <UpdateNotice />{' '}
        {info ? `${info.name} ${info.version} · ${info.transport === 'ipc' ? 'desktop' : 'browser'}` : ''}
      </span>
    </footer>
  );
}
