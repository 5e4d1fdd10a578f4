import { useEffect, useRef, useState } from 'react';
import { engineSettingsSchema, heloNameSchema, type HeloCheck } from '../../../electron/common/settings-schemas.ts';
import { sift } from '../bridge.ts';
import './sender-fields.css';

export type Sender = { helo: string; mailFrom: string };

/** What is wrong with the sender as typed, in words; undefined when both may be saved. */
export function senderProblem(sender: Sender): string | undefined {
  const helo = sender.helo.trim();
  const mailFrom = sender.mailFrom.trim();
  if (helo && !heloNameSchema.safeParse(helo).success) {
    return 'HELO name: a host name such as mail.example.com (letters, digits, dots and hyphens).';
  }
  if (mailFrom && !engineSettingsSchema.shape.mailFrom.safeParse(mailFrom).success) {
    return 'MAIL FROM address: an email address on a domain you own, such as verify@example.com.';
  }
  return undefined;
}

/**
 * Who live checks say they are, where they are chosen: mail servers judge the HELO name and the MAIL FROM
 * address before they answer about anyone. Where DNS answers, says whether the name points to an address
 * and that address back to the name.
 */
export function SenderFields({ sender, onChange }: { sender: Sender; onChange: (sender: Sender) => void }) {
  const valid = (helo: string) => heloNameSchema.safeParse(helo.trim()).success;
  const [check, setCheck] = useState<HeloCheck | 'checking' | undefined>(() =>
    valid(sender.helo) ? 'checking' : undefined,
  );
  /** Only the newest question's answer is shown. */
  const asked = useRef(0);
  const lookUp = (helo: string) => {
    const mine = ++asked.current;
    const show = (answer: HeloCheck | undefined) => mine === asked.current && setCheck(answer);
    sift.settings.checkHelo({ helo: helo.trim() }).then(show, () => show(undefined));
  };
  // The name as filled in is checked once at once; then each time the person leaves the field.
  useEffect(() => {
    if (valid(sender.helo)) lookUp(sender.helo);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const ask = (helo: string) => {
    if (!valid(helo)) return setCheck(undefined);
    setCheck('checking');
    lookUp(helo);
  };
  return (
    <fieldset className="sender">
      <legend>Who the checks say they are</legend>
      <label className="form-field">
        <span>HELO name</span>
        <input
          type="text"
          value={sender.helo}
          autoComplete="off"
          spellCheck={false}
          aria-describedby="sender-helo-says"
          onChange={(event) => onChange({ ...sender, helo: event.target.value })}
          onBlur={(event) => ask(event.target.value)}
        />
        <span className="hint" id="sender-helo-says">
          The name Sift gives each mail server when it says hello. Servers look it up: it should resolve to this
          computer's address (or its proxy's), and that address back to it.
        </span>
      </label>
      {check && (
        <p
          className={`sender__dns ${check !== 'checking' && check.state === 'matches' ? 'sender__dns--ok' : ''}`}
          role="status"
          data-testid="helo-dns"
        >
          {check === 'checking' ? 'Asking DNS about this name…' : check.message}
        </p>
      )}
      {check && check !== 'checking' && check.blocklists && (
        <p
          className={`sender__dns ${check.blocklists.state === 'clean' ? 'sender__dns--ok' : ''}`}
          role="status"
          data-testid="helo-blocklists"
        >
          {check.blocklists.message}
        </p>
      )}
      <label className="form-field">
        <span>MAIL FROM address</span>
        <input
          type="email"
          value={sender.mailFrom}
          autoComplete="off"
          spellCheck={false}
          aria-describedby="sender-from-says"
          onChange={(event) => onChange({ ...sender, mailFrom: event.target.value })}
        />
        <span className="hint" id="sender-from-says">
          The sender every check names (no mail is ever sent): an address on a domain you own, so servers that check the
          domain find it real.
        </span>
      </label>
    </fieldset>
  );
}
