// What the last change on a list screen did (the do-not-mail list, rules): said to a screen reader and
// shown, the lines it left out with why, and an error in words.
type ChangeNoticesProps = {
  /** The data-testid prefix: `<prefix>-notice`, `<prefix>-refused`. */
  prefix: string;
  notice?: string | undefined;
  refused?: readonly { entry: string; reason: string }[] | undefined;
  error?: string | undefined;
};

export function ChangeNotices({ prefix, notice, refused, error }: ChangeNoticesProps) {
  return (
    <>
      <p className="visually-hidden" role="status">
        {notice ?? ''}
      </p>
      {notice && (
        <p className="note" data-testid={`${prefix}-notice`}>
          {notice}
        </p>
      )}
      {refused && refused.length > 0 && (
        <ul className="note change-notices__refused" data-testid={`${prefix}-refused`}>
          {refused.map((line) => (
            <li key={line.entry}>
              “{line.entry}”: {line.reason}
            </li>
          ))}
        </ul>
      )}
      {error && (
        <div className="alert" role="alert">
          {error}
        </div>
      )}
    </>
  );
}
