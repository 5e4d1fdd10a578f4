// How Sift says that verdicts are demo verdicts: a sandbox key's scripted answers, for which no mail
// server was asked. One wording for the app, the CLI and the exported files.

/** For the summary file, the CLI and the results screen. */
export const demoVerdictsNote =
  'Demo verdicts from a sandbox key: scripted, no mail server was asked. Check with a live key for real verdicts.';

/** Each row's note, in place of what a mail server would have said. */
export const demoRowNote = 'Demo verdict: no mail server was asked.';
