import { useEffect, useState } from 'react';
import type { RuleView } from '../../../../electron/common/contract.ts';
import { ruleActions, ruleActionWords, type RuleAction } from '../../../../electron/common/domain-rules.ts';
import { countOf, formatCount } from '../../format.ts';
import { rulesActions, useRulesStore } from '../../stores/rules-store.ts';
import { ChangeNotices } from '../../ui/change-notices.tsx';
import { TableHead } from '../../ui/table-head.tsx';
import { useFocusHeading } from '../../use-focus-heading.ts';
import { ListFileField } from '../../ui/list-file-field.tsx';
import '../suppression/suppression-screen.css';

/** Rules per domain: what each does, how many rows it decided in the last list, setting and removing them. */
export function RulesScreen() {
  const notice = useRulesStore((state) => state.notice);
  const error = useRulesStore((state) => state.error);
  const refused = useRulesStore((state) => state.refused);
  const heading = useFocusHeading<HTMLHeadingElement>('rules');

  useEffect(() => {
    void rulesActions.load();
  }, []);

  return (
    <section className="card card--padded suppression" aria-labelledby="rules-heading">
      <h2 className="card__title" id="rules-heading" tabIndex={-1} ref={heading}>
        Rules per domain
      </h2>
      <p className="note">
        A rule decides every address at its domain (and its subdomains) before anything is sent, so those addresses are
        never billed; each row it decides says so in its reason. The do-not-mail list comes first. Lists read from now
        on follow the rules, and a list waiting to be sent is read again when it is started.
      </p>
      <ul className="note change-notices__refused" data-testid="rule-actions">
        {ruleActions.map((action) => (
          <li key={action}>
            <strong>{ruleActionWords[action].name}</strong>: {ruleActionWords[action].does}.
          </li>
        ))}
      </ul>
      <ChangeNotices prefix="rules" notice={notice} refused={refused} error={error} />
      <AddRules />
      <RuleTable />
    </section>
  );
}

function AddRules() {
  const busy = useRulesStore((state) => state.busy);
  const [text, setText] = useState('');
  const [action, setAction] = useState<RuleAction>('never_check');
  return (
    <div className="suppression__add">
      <form
        className="suppression__form"
        onSubmit={(event) => {
          event.preventDefault();
          void rulesActions.set(text, action).then((done) => done && setText(''));
        }}
      >
        <label className="form-field">
          <span>Domains, one per line</span>
          <textarea
            rows={3}
            value={text}
            placeholder={'mycompany.example\npartner.example'}
            onChange={(event) => setText(event.target.value)}
          />
        </label>
        <label className="form-field">
          <span>Rule</span>
          <select
            value={action}
            data-testid="rule-action"
            onChange={(event) => setAction(event.target.value as RuleAction)}
          >
            {ruleActions.map((each) => (
              <option key={each} value={each}>
                {ruleActionWords[each].name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button--primary" disabled={busy || text.trim() === ''}>
          Set the rule
        </button>
      </form>
      <div className="suppression__file">
        <ListFileField
          label="Or a file of domains (text, CSV, TSV or .xlsx), with the rule chosen"
          testId="rules-file"
          disabled={busy}
          onFile={(file) => void rulesActions.importFile(file, action)}
        />
      </div>
    </div>
  );
}

function RuleTable() {
  const view = useRulesStore((state) => state.view);
  const busy = useRulesStore((state) => state.busy);
  if (!view) return null;
  if (view.rules.length === 0) return <p className="note">No rules yet: every address is checked.</p>;
  const last = view.lastList
    ? `Rows decided in ${view.lastList.list} (${new Date(view.lastList.at).toLocaleDateString()})`
    : 'Rows decided (no list yet)';
  return (
    <>
      <p className="note" data-testid="rules-shown">
        {countOf(view.rules.length, 'rule')}
      </p>
      <table className="data-table" data-testid="rules-table">
        <caption className="visually-hidden">Rules per domain, by domain</caption>
        <TableHead columns={['Domain', 'Rule', last, 'Set', 'From']} />
        <tbody>
          {view.rules.map((rule) => (
            <RuleRow key={rule.domain} rule={rule} busy={busy} />
          ))}
        </tbody>
      </table>
    </>
  );
}

function RuleRow({ rule, busy }: { rule: RuleView; busy: boolean }) {
  return (
    <tr>
      <td className="suppression__value">{rule.domain}</td>
      <td>{ruleActionWords[rule.action].name}</td>
      <td>{formatCount(rule.lastListRows)}</td>
      <td>{new Date(rule.addedAt).toLocaleDateString()}</td>
      <td>{rule.source}</td>
      <td className="suppression__remove">
        <button
          type="button"
          className="button"
          disabled={busy}
          aria-label={`Remove the rule for ${rule.domain}`}
          onClick={() => void rulesActions.remove(rule.domain)}
        >
          Remove
        </button>
      </td>
    </tr>
  );
}
