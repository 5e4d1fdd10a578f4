// The content security policy of every page Sift serves (app://, the web host, and the page's own
// <meta> tag, which Vite fills in from here): nothing but its own files, no inline script.
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The same policy for a <meta> tag, where browsers ignore (and warn about) frame-ancestors. */
export const metaContentSecurityPolicy = contentSecurityPolicy
  .split('; ')
  .filter((directive) => !directive.startsWith('frame-ancestors'))
  .join('; ');
