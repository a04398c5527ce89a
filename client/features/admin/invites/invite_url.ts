/** The link an invited person opens to create their account (spec 01 §2.1: /accept-invite/{code}). */
export function inviteUrl(code: string): string {
  return `${globalThis.location.origin}/accept-invite/${encodeURIComponent(code)}`;
}
