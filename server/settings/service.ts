import { eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../db/client.ts";
import { systemSettings } from "../../db/schema.ts";
import {
  isMaskedSecret,
  MASKED_SECRET,
  SETTING_KEYS,
  type SettingDefinition,
  settingDefinition,
} from "../../shared/settings.ts";
import { llmProvider } from "../../shared/providers/llm_catalog.ts";
import { AppError } from "../errors.ts";
import { decryptSecret, encryptSecret } from "../auth/keys.ts";
import { endpointProblem } from "../http/url_guard.ts";
import { oidcLoginInfo } from "../oidc/options.ts";

/** Labels of internal settings that are not update-env keys. */
export const LABELS = {
  multiUserMode: "multi_user_mode",
  onboardingComplete: "onboarding_complete",
  customAppName: "custom_app_name",
  supportEmail: "support_email",
  footerData: "footer_data",
  /** The page title shown instead of the app name in browser tabs (the reference's `meta_page_title`). */
  metaPageTitle: "meta_page_title",
  /** The custom logo's file in the assets folder, and its dark-theme variant (names the server chose). */
  logoFilename: "logo_filename",
  logoDarkFilename: "logo_dark_filename",
  /** JSON list of `{user, response}` shown on the home page (the reference's welcome_messages table, v1.9). */
  welcomeMessages: "welcome_messages",
  onboardingSurvey: "onboarding_survey",
  textSplitterChunkSize: "text_splitter_chunk_size",
  textSplitterChunkOverlap: "text_splitter_chunk_overlap",
  /** argon2id hash of the single-user instance password; absent when the instance is open. */
  instancePasswordHash: "instance_password_hash",
  /** Raised whenever the instance password changes: older single-user tokens stop working. */
  instanceTokenVersion: "instance_token_version",
  /** The system prompt new workspaces start with and workspaces without their own use; unset: the built-in. */
  defaultSystemPrompt: "default_system_prompt",
} as const;

export interface UpdateResult {
  newValues: Record<string, string>;
  /** The keys whose stored value is now different (for the event log: names only, never values). */
  changed: string[];
}

/**
 * Instance settings: rows of `system_settings`, cached in memory after start. A value the operator set in the
 * environment wins and cannot be changed through the API. Secrets are stored encrypted with the instance key.
 */
export class SettingsService {
  private constructor(
    private readonly db: Database,
    private readonly key: CryptoKey,
    private readonly locked: Readonly<Record<string, string>>,
    private readonly stored: Map<string, string>,
  ) {}

  static async load(
    db: Database,
    key: CryptoKey,
    locked: Readonly<Record<string, string>>,
  ): Promise<SettingsService> {
    return new SettingsService(db, key, locked, await readStored(db, key));
  }

  /** Writes of this process under way or done; a refresh that overlapped one is not applied. */
  private writes = 0;

  /**
   * Raised whenever a setting's value may have changed (a write, or a refresh that read another replica's):
   * what is built from the settings (the chat model, providers/llm/registry.ts) is kept until it moves.
   */
  version = 0;

  /**
   * Reads the stored settings again, for another replica on the same database may have changed them. Returns
   * whether anything changed. A refresh that overlapped a write of this process is dropped (the next one
   * reads it).
   */
  async refresh(): Promise<boolean> {
    const before = this.writes;
    const fresh = await readStored(this.db, this.key);
    if (this.writes !== before) return false;
    const same = fresh.size === this.stored.size &&
      [...fresh].every(([label, value]) => this.stored.get(label) === value);
    if (same) return false;
    this.stored.clear();
    for (const [label, value] of fresh) this.stored.set(label, value);
    this.version++;
    return true;
  }

  /** The effective value of an update-env key: the operator's, else the stored one, else the default. */
  value(key: string): string | undefined {
    const lockedValue = this.locked[key];
    if (lockedValue !== undefined) return normalise(settingDefinition(key), lockedValue);
    const storedValue = this.stored.get(key);
    if (storedValue !== undefined && storedValue !== "") return storedValue;
    return settingDefinition(key)?.defaultValue;
  }

  isLocked(key: string): boolean {
    return this.locked[key] !== undefined;
  }

  /** An internal setting by label (not an update-env key). */
  label(label: string): string | undefined {
    return this.stored.get(label);
  }

  /** Stores internal settings; returns the labels whose value is now different. */
  async setLabels(values: Record<string, string | null>): Promise<string[]> {
    const changed = Object.entries(values).filter(([label, value]) =>
      (this.stored.get(label) ?? null) !== value
    )
      .map(([label]) => label);
    const statements = Object.entries(values).map(([label, value]) => this.upsert(label, value));
    await this.runBatch(statements);
    for (const [label, value] of Object.entries(values)) {
      if (value === null) this.stored.delete(label);
      else this.stored.set(label, value);
    }
    this.version++;
    return changed;
  }

  /**
   * Validates every key first and applies all or none (the reference stops at the first bad key). A masked
   * secret (asterisks) means "unchanged" and is skipped. Throws an AppError whose body is `{newValues:{},
   * error}` listing every problem.
   */
  async update(input: unknown): Promise<UpdateResult> {
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      throw new AppError("invalid_input", "The settings must be a JSON object of setting names and values.", {
        body: { newValues: {}, error: "The settings must be a JSON object of setting names and values." },
      });
    }
    const errors: string[] = [];
    const changes: { definition: SettingDefinition; value: string }[] = [];
    for (const [key, raw] of Object.entries(input)) {
      const definition = settingDefinition(key);
      if (!definition) {
        errors.push(`Unknown setting "${key}".`);
        continue;
      }
      if (raw !== null && !["string", "number", "boolean"].includes(typeof raw)) {
        errors.push(`${key}: the value must be text.`);
        continue;
      }
      const text = raw === null ? "" : String(raw);
      if (definition.secret && isMaskedSecret(text)) continue;
      if (this.isLocked(key)) {
        errors.push(
          `${key} is set by the server's environment (${definition.env}) and cannot be changed here.`,
        );
        continue;
      }
      const checked = definition.schema.safeParse(text);
      if (!checked.success) {
        errors.push(`${key}: ${checked.error.issues[0]?.message ?? "invalid value"}`);
        continue;
      }
      const endpoint = /^https?:\/\//i.test(checked.data) ? endpointProblem(checked.data) : null;
      if (endpoint) {
        errors.push(`${key}: ${endpoint}`);
        continue;
      }
      changes.push({ definition, value: checked.data });
    }
    if (errors.length > 0) {
      const message = errors.join("\n");
      throw new AppError("invalid_input", message, { body: { newValues: {}, error: message } });
    }

    const changed = changes.filter(({ definition, value }) =>
      (this.stored.get(definition.key) ?? "") !== value
    )
      .map(({ definition }) => definition.key);
    const statements = [];
    for (const { definition, value } of changes) {
      const stored = value === "" ? null : definition.secret ? await encryptSecret(this.key, value) : value;
      statements.push(this.upsert(definition.key, stored));
    }
    await this.runBatch(statements);
    const newValues: Record<string, string> = {};
    for (const { definition, value } of changes) {
      if (value === "") this.stored.delete(definition.key);
      else this.stored.set(definition.key, value);
      newValues[definition.key] = definition.secret && value !== "" ? MASKED_SECRET : value;
    }
    this.version++;
    return { newValues, changed };
  }

  get multiUserMode(): boolean {
    return this.label(LABELS.multiUserMode) === "true";
  }

  /** Whether every call needs a session: multi-user mode, or a single-user instance with a password. */
  get requiresAuth(): boolean {
    return this.multiUserMode || Boolean(this.label(LABELS.instancePasswordHash));
  }

  get instanceTokenVersion(): number {
    return Number(this.label(LABELS.instanceTokenVersion) ?? 0) || 0;
  }

  /**
   * The `results` of `GET /api/setup-complete`. Secrets are reported as booleans; `full` false gives only what
   * the login and onboarding screens need (docs/api-compat.md#setup-complete).
   */
  setupResults(
    options: {
      full: boolean;
      requiresAuth: boolean;
      simpleSso: { enabled: boolean; noLogin: boolean };
      workspaceDeletionProtection?: boolean;
    },
  ): Record<string, unknown> {
    const base: Record<string, unknown> = {
      MultiUserMode: this.multiUserMode,
      RequiresAuth: options.requiresAuth,
      OnboardingComplete: this.label(LABELS.onboardingComplete) === "true",
      LLMProvider: this.value("LLMProvider") ?? null,
      VectorDB: this.value("VectorDB") ?? null,
      EmbeddingEngine: this.value("EmbeddingEngine") ?? null,
      CustomAppName: this.label(LABELS.customAppName) ?? null,
      // The login screen's "Log in with …" button and whether it shows the password form.
      ...oidcLoginInfo({ settings: this }),
    };
    // The chat header's model picker reads the model name from here before it has a token; like the provider,
    // it is no secret.
    const modelKey = llmProvider(String(base.LLMProvider ?? ""))?.modelKey;
    base.LLMModel = modelKey ? this.value(modelKey) ?? null : null;
    if (!options.full) return base;
    // The screens that issue login links and invitations offer only what the server will then accept.
    const results: Record<string, unknown> = {
      ...base,
      SimpleSSOEnabled: options.simpleSso.enabled,
      SimpleSSONoLogin: options.simpleSso.enabled && options.simpleSso.noLogin,
      // The reference's key: the delete controls ask for the workspace's name, and only admins see them.
      WorkspaceDeletionProtection: options.workspaceDeletionProtection === true,
    };
    for (const definition of SETTING_KEYS) {
      const value = this.value(definition.key);
      if (definition.secret) results[definition.key] = value !== undefined && value !== "";
      else if (value !== undefined) results[definition.key] = value;
    }
    results.LockedSettings = SETTING_KEYS.filter((definition) => this.isLocked(definition.key)).map((d) =>
      d.key
    );
    return results;
  }

  private upsert(label: string, value: string | null) {
    if (value === null) return this.db.delete(systemSettings).where(eq(systemSettings.label, label));
    return this.db.insert(systemSettings).values({ label, value }).onConflictDoUpdate({
      target: systemSettings.label,
      set: { value, lastUpdatedAt: new Date() },
    });
  }

  private async runBatch(statements: BatchItem<"sqlite">[]) {
    if (statements.length === 0) return;
    this.writes++;
    try {
      await this.db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    } finally {
      this.writes++;
    }
  }
}

async function readStored(db: Database, key: CryptoKey): Promise<Map<string, string>> {
  const rows = await db.select().from(systemSettings);
  const stored = new Map<string, string>();
  for (const row of rows) {
    if (row.value === null) continue;
    const definition = settingDefinition(row.label);
    stored.set(row.label, definition?.secret ? await decryptSecret(key, row.value) : row.value);
  }
  return stored;
}

function normalise(definition: SettingDefinition | undefined, value: string): string {
  if (!definition) return value;
  const checked = definition.schema.safeParse(value);
  return checked.success ? checked.data : value;
}
