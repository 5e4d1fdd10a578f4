import { go } from '../stores/nav-store.ts';
import './demo-notice.css';

/** Said wherever demo verdicts are shown: what they are, and where to choose real checks. */
export function DemoNotice() {
  return (
    <div className="alert alert--demo" role="note" data-testid="demo-notice">
      <p>
        <strong>These are demo verdicts.</strong> A sandbox key scripts them: no mail server was asked, so they say
        nothing about these addresses. Exported files are named <code>….demo.*</code> (list.demo.cleaned.csv, say).
      </p>
      <button type="button" className="button" onClick={() => go('settings')}>
        Choose how addresses are checked
      </button>
    </div>
  );
}
