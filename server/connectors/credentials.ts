import { decryptSecret, encryptSecret, type InstanceKeys } from "../auth/keys.ts";
import type { SettingsService } from "../settings/service.ts";

/**
 * The credentials an import used (an access token, a Confluence username and token), kept for live sync so a
 * watched document of a private repository or a Confluence space can be fetched again. One entry per source and
 * library folder, in the settings table (shared by replicas), encrypted with the instance key as the instance's
 * other secrets are; no call ever answers them. An import without credentials removes its folder's entry.
 */
export interface CredentialDeps {
  settings: Pick<SettingsService, "label" | "setLabels">;
  keys: Pick<InstanceKeys, "settings">;
}

const PREFIX = "connector_credentials:";
const labelOf = (source: string, folder: string) => `${PREFIX}${source}:${folder}`;

export async function keepCredentials(
  deps: CredentialDeps,
  source: string,
  folder: string,
  credentials: Record<string, string> | null,
): Promise<void> {
  const filled = credentials && Object.values(credentials).some(Boolean) ? credentials : null;
  const value = filled ? await encryptSecret(deps.keys.settings, JSON.stringify(filled)) : null;
  await deps.settings.setLabels({ [labelOf(source, folder)]: value });
}

/** The folder's credentials, or null when none are kept (or they cannot be read with this instance's key). */
export async function readCredentials(
  deps: CredentialDeps,
  source: string,
  folder: string,
): Promise<Record<string, string> | null> {
  const stored = deps.settings.label(labelOf(source, folder));
  if (!stored) return null;
  try {
    const value = JSON.parse(await decryptSecret(deps.keys.settings, stored));
    return value && typeof value === "object" ? value as Record<string, string> : null;
  } catch {
    return null;
  }
}
