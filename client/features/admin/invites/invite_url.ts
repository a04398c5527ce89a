/** The link an invited person opens to create their account (/accept-invite/{code}). */
export function inviteUrl(code: string): string {
  return `${globalThis.location.origin}/accept-invite/${encodeURIComponent(code)}`;
}
