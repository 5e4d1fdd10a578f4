// The one way Sift hides a URL's user and password wherever it prints, logs or stores a message that may
// hold one (a proxy, a database URL, a webhook): whatever characters the password holds, `/ ? # @ :`
// typed as they are included, so the userinfo runs to the last `@` of the URL, not to the first `/`.
// That can hide more than the credentials (an address in a query), never less.

/** A URL-like token: a scheme, `://`, then anything up to white space or a quote. */
const urlToken = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s"'`<>]*)/gi;

const maskedSecret = '•••';

/** `text` with every URL's password (or a user given alone, as tokens often are) replaced by •••. */
export function maskUrlCredentials(text: string): string {
  return text.replace(urlToken, (_whole, scheme: string, rest: string) => {
    const at = rest.lastIndexOf('@');
    if (at < 0) return scheme + rest;
    const userinfo = rest.slice(0, at);
    const colon = userinfo.indexOf(':');
    const shown = colon < 0 ? maskedSecret : `${userinfo.slice(0, colon)}:${maskedSecret}`;
    return `${scheme}${shown}${rest.slice(at)}`;
  });
}
