// Every address path Sift sends a tool is built here, so that nothing from outside (an id in a tool's
// answer, a list named on the command line) can become a path of its own: `..` as a member id once made an
// archive `DELETE /3.0/lists/{list}/`, Mailchimp's call that deletes an audience. A value in the path is one
// step, percent-encoded, never empty, `.` or `..`; a value after the `?` is a query value, encoded.
import { ConnectorError } from './connector.ts';

/** A path to a tool's API, made only by `toolPath`: the one kind of path ToolHttp.call takes. */
export class ToolPath {
  readonly text: string;
  private constructor(text: string) {
    this.text = text;
  }
  /** For toolPath alone: nothing else makes one. */
  static made(text: string): ToolPath {
    return new ToolPath(text);
  }
}

/** One step of a path, encoded; refused when it would be no step, or a step up or in place. */
function pathStep(value: string): string {
  if (value === '' || value === '.' || value === '..')
    throw new ConnectorError(
      'refused',
      `Sift will not call a tool at a path with ${value === '' ? 'an empty step' : `the step "${value}"`}: an id or name from outside is one step of the path, never more and never none.`,
    );
  return encodeURIComponent(value);
}

/**
 * A path from a template: each value in the path part is one checked step (pathStep), each value after the
 * `?` a query value; a ToolPath given as a value (a list's own path) goes in as it is.
 */
export function toolPath(literals: TemplateStringsArray, ...values: readonly (string | number | ToolPath)[]): ToolPath {
  let text = literals[0]!;
  let inQuery = text.includes('?');
  values.forEach((value, at) => {
    if (value instanceof ToolPath) text += value.text;
    else text += inQuery ? encodeURIComponent(String(value)) : pathStep(String(value));
    const literal = literals[at + 1]!;
    text += literal;
    inQuery ||= literal.includes('?') || (value instanceof ToolPath && value.text.includes('?'));
  });
  return ToolPath.made(text);
}
