import { useEffect, useState } from 'react';
import type { SettingsView } from '../../../../electron/common/contract.ts';
import { HostedServiceForm } from '../../components/hosted-service-form.tsx';
import { SenderFields, senderProblem, type Sender } from '../../components/sender-fields.tsx';
import { LiveCheckTestButton, ProxiesField, proxyRowsOf, proxyTextsOf } from '../../components/live-check-reach.tsx';
import { go } from '../../stores/nav-store.ts';
import { settingsActions, useSettingsStore } from '../../stores/settings-store.ts';
import { useFocusHeading } from '../../use-focus-heading.ts';
import './setup-screen.css';

type Way = 'computer' | 'server' | 'hosted' | 'demo';

const ways: { way: Way; title: string; says: string }[] = [
  {
    way: 'computer',
    title: 'On this computer',
    says: "Sift asks each address's mail server itself, on port 25, without sending mail. Free. Many networks block port 25; a SOCKS5 proxy on a machine that may use it gets around that.",
  },
  {
    way: 'server',
    title: 'On your own Sift server',
    says: 'Sift’s service on a server that may use port 25 (yours, in a data centre), reached by its URL and a key.',
  },
  {
    way: 'hosted',
    title: 'On a hosted service',
    says: 'A verification service you have an account with, by its URL and API key. It charges per check.',
  },
  {
    way: 'demo',
    title: 'A demo',
    says: 'Scripted verdicts from a sandbox key: no mail server is asked and nothing is charged. Every screen and file says “demo”.',
  },
];

/** What is in use now, as one of the four ways (a hosted live key may be the person's own server). */
function wayOf(settings: SettingsView): Way | undefined {
  if (!settings.checkingChosen) return undefined;
  if (settings.service === 'own') return settings.ownMode === 'live' ? 'computer' : 'demo';
  return settings.hosted?.mode === 'sandbox' ? 'demo' : 'hosted';
}

const doneNow = () => go('clean');

function OnThisComputer({ settings }: { settings: SettingsView }) {
  const busy = useSettingsStore((state) => state.busy);
  const [rows, setRows] = useState(() => proxyRowsOf(settings.engine.proxies));
  const [sender, setSender] = useState<Sender>(() => ({
    helo: settings.engine.helo ?? settings.engineDefaults.helo,
    mailFrom: settings.engine.mailFrom ?? settings.engineDefaults.mailFrom,
  }));
  const [problem, setProblem] = useState<string>();
  const proxies = proxyTextsOf(rows);
  return (
    <div className="setup__detail">
      <SenderFields sender={sender} onChange={setSender} />
      {problem && (
        <p className="alert" role="alert" data-testid="sender-problem">
          {problem}
        </p>
      )}
      <ProxiesField rows={rows} onChange={setRows} />
      <LiveCheckTestButton proxies={proxies} />
      <button
        type="button"
        className="button button--primary"
        disabled={busy}
        onClick={() => {
          // A field left at the default is not saved: the default follows this computer's name.
          const { engineDefaults: defaults } = settings;
          const chosen = {
            helo: sender.helo.trim() === defaults.helo ? '' : sender.helo,
            mailFrom: sender.mailFrom.trim() === defaults.mailFrom ? '' : sender.mailFrom,
          };
          const problem = senderProblem(chosen);
          setProblem(problem);
          if (problem) return;
          void settingsActions.checkOnThisComputer(proxies, chosen).then((done) => done && doneNow());
        }}
      >
        Check on this computer
      </button>
    </div>
  );
}

function OnYourServer({ settings }: { settings: SettingsView }) {
  return (
    <div className="setup__detail">
      <ol className="setup__steps">
        <li>
          On a server that may connect out on port 25:{' '}
          <code>npx sift service --port 8080 --helo mail.example.com --mail-from verify@example.com</code>
        </li>
        <li>
          Make a live key there: <code>npx sift service keys create --live</code>
        </li>
        <li>Put a TLS reverse proxy (Caddy, nginx) in front of 127.0.0.1:8080, then enter its URL and the key here.</li>
      </ol>
      <HostedServiceForm settings={settings} urlLabel="Server URL" onSaved={doneNow} />
    </div>
  );
}

/** The first-run question, and Settings ▸ Change: how addresses are checked, each way leading where it says. */
export function SetupScreen() {
  const settings = useSettingsStore((state) => state.settings);
  const busy = useSettingsStore((state) => state.busy);
  const error = useSettingsStore((state) => state.error);
  const notice = useSettingsStore((state) => state.notice);
  const heading = useFocusHeading<HTMLHeadingElement>('setup');
  const [picked, setPicked] = useState<Way>();

  useEffect(() => {
    void settingsActions.load();
  }, []);

  if (!settings) return null;
  const way = picked ?? wayOf(settings);
  return (
    <section className="card card--padded form-screen setup" aria-labelledby="setup-heading">
      <h2 className="card__title" id="setup-heading" tabIndex={-1} ref={heading}>
        How should Sift check addresses?
      </h2>
      <p className="note">
        {settings.checkingChosen
          ? 'You can change this at any time; lists already cleaned keep the verdicts they got.'
          : 'Choose once; Settings can change it later. Until then, lists get demo verdicts.'}
      </p>
      {error && (
        <div className="alert" role="alert">
          {error}
        </div>
      )}
      {notice && (
        <p className="note" role="status">
          {notice}
        </p>
      )}
      <fieldset className="setup__ways">
        <legend className="visually-hidden">How addresses are checked</legend>
        {ways.map((option) => (
          <label key={option.way} className={`setup__way${way === option.way ? ' setup__way--picked' : ''}`}>
            {/* Named by its title alone; what it means is its description. */}
            <input
              type="radio"
              name="way"
              value={option.way}
              checked={way === option.way}
              aria-labelledby={`way-${option.way}`}
              aria-describedby={`way-${option.way}-says`}
              onChange={() => setPicked(option.way)}
            />
            <span>
              <strong id={`way-${option.way}`}>{option.title}</strong>
              <span className="setup__says" id={`way-${option.way}-says`}>
                {option.says}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      {way === 'computer' && <OnThisComputer settings={settings} />}
      {way === 'server' && <OnYourServer settings={settings} />}
      {way === 'hosted' && (
        <div className="setup__detail">
          <HostedServiceForm settings={settings} onSaved={doneNow} />
        </div>
      )}
      {way === 'demo' && (
        <div className="setup__detail">
          <button
            type="button"
            className="button button--primary"
            disabled={busy}
            onClick={() => void settingsActions.useDemo().then((done) => done && doneNow())}
          >
            Use the demo
          </button>
        </div>
      )}
    </section>
  );
}
