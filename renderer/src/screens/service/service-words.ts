// How the service screen says times.
export const when = (iso: string | null) =>
  iso === null ? 'never' : new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
