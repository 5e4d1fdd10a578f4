import { useEffect, useState } from 'react';
import { mailboxActions, useOutcomesStore, type MailboxForm } from '../../stores/outcomes-store.ts';

const emptyForm: MailboxForm = { name: '', host: '', port: '', user: '', password: '', folder: 'INBOX', plain: false };

/**
 * The bounce mailboxes Sift reads (for people who send through their own server): each read for what is new
 * since, its bounces moved to a folder of Sift's (never deleted), mail that is no bounce left where it is.
 * The password goes to main once, to be tried and kept in its vault; the page never gets it back.
 */
export function BounceMailboxes() {
  const mailboxes = useOutcomesStore((state) => state.mailboxes);
  const busy = useOutcomesStore((state) => state.busy);
  const [form, setForm] = useState(emptyForm);
  useEffect(() => {
    void mailboxActions.load();
  }, []);
  const field = (key: keyof MailboxForm) => ({
    value: String(form[key]),
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value }),
  });
  return (
    <div className="what-happened__mailboxes" data-testid="bounce-mailboxes">
      <h4 className="what-happened__subtitle">Bounce mailboxes</h4>
      {mailboxes && mailboxes.length > 0 && (
        <ul className="plain-list">
          {mailboxes.map((mailbox) => (
            <li key={mailbox.name}>
              <span>
                <strong>{mailbox.name}</strong>: {mailbox.user} at {mailbox.host}:{mailbox.port}
                {mailbox.tls ? '' : ' (plain, this computer)'}, {mailbox.folder}
                {mailbox.readAt ? `, read ${new Date(mailbox.readAt).toLocaleString()}` : ', not read yet'}
              </span>
              <button
                type="button"
                className="button"
                disabled={busy}
                onClick={() => void mailboxActions.read(mailbox.name)}
              >
                Read<span className="visually-hidden"> {mailbox.name}</span>
              </button>
              <button
                type="button"
                className="button"
                disabled={busy}
                onClick={() => void mailboxActions.remove(mailbox.name)}
              >
                Remove<span className="visually-hidden"> {mailbox.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="what-happened__mailbox-form"
        aria-label="Connect a bounce mailbox"
        onSubmit={(event) => {
          event.preventDefault();
          void mailboxActions.connect(form).then((done) => setForm(done ? emptyForm : { ...form, password: '' }));
        }}
      >
        <label className="form-field">
          <span>Name (yours)</span>
          <input required {...field('name')} />
        </label>
        <label className="form-field">
          <span>IMAP server</span>
          <input required placeholder="imap.example.com" {...field('host')} />
        </label>
        <label className="form-field">
          <span>Port (993 with TLS)</span>
          <input inputMode="numeric" {...field('port')} />
        </label>
        <label className="form-field">
          <span>User</span>
          <input required autoComplete="off" {...field('user')} />
        </label>
        <label className="form-field">
          <span>Password</span>
          <input required type="password" autoComplete="new-password" {...field('password')} />
        </label>
        <label className="form-field">
          <span>Folder bounces arrive in</span>
          <input {...field('folder')} />
        </label>
        <label className="choice">
          <input
            type="checkbox"
            checked={form.plain}
            onChange={(event) => setForm({ ...form, plain: event.target.checked })}
          />
          Plain IMAP, no TLS (only for a server on this computer)
        </label>
        <button type="submit" className="button" disabled={busy}>
          Connect the mailbox
        </button>
      </form>
    </div>
  );
}
