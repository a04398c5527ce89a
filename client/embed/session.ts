/** Where the widget keeps a visitor's chat session: one UUID per embed, in the host page's localStorage. */

/** The storage key of an embed's session id. */
export function sessionKey(embedId: string): string {
  return `lectern_chat_${embedId}_session_id`;
}

/** The storage key that remembers whether the window was open, so it stays open across the site's pages. */
export function openKey(embedId: string): string {
  return `lectern_chat_${embedId}_open`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The embed's session id: the stored one when it is a UUID, else a new one, stored. Without usable storage
 * (blocked, full) the id lives as long as the page.
 */
export function sessionId(storage: Pick<Storage, "getItem" | "setItem"> | null, embedId: string): string {
  const key = sessionKey(embedId);
  try {
    const stored = storage?.getItem(key);
    if (stored && UUID.test(stored)) return stored;
  } catch {
    // storage refused: a page-long session
  }
  const made = crypto.randomUUID();
  try {
    storage?.setItem(key, made);
  } catch {
    // as above
  }
  return made;
}
