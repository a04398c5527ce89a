import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns.ts";

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  username: text("username").unique(),
  password: text("password").notNull(),
  pfpFilename: text("pfp_filename"),
  role: text("role", { enum: ["admin", "manager", "default"] }).notNull().default("default"),
  suspended: integer("suspended").notNull().default(0),
  seenRecoveryCodes: integer("seen_recovery_codes", { mode: "boolean" }).notNull().default(false),
  dailyMessageLimit: integer("daily_message_limit"),
  bio: text("bio").default(""),
  preferredLanguage: text("preferred_language").notNull().default("en"),
  /** Raised when the password, role or suspension changes: older session tokens stop working. */
  tokenVersion: integer("token_version").notNull().default(0),
  createdAt: timestamp("created_at"),
  lastUpdatedAt: timestamp("last_updated_at"),
});

/** argon2id hashes of the recovery codes handed out on first login. */
export const recoveryCodes = sqliteTable("recovery_codes", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  codeHash: text("code_hash").notNull(),
  createdAt: timestamp("created_at"),
}, (table) => [index("recovery_codes_user_idx").on(table.userId)]);

/** Password reset tokens (sha256 of the token), valid 10 minutes. */
export const passwordResetTokens = sqliteTable("password_reset_tokens", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull().unique(),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  createdAt: timestamp("created_at"),
});

/**
 * Users who log in through OpenID Connect: the identity provider's issuer and subject (`sub`) name the user
 * for good, whatever their username claim later reads.
 */
export const oidcIdentities = sqliteTable("oidc_identities", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  issuer: text("issuer").notNull(),
  subject: text("subject").notNull(),
  createdAt: timestamp("created_at"),
}, (table) => [uniqueIndex("oidc_identities_issuer_subject_idx").on(table.issuer, table.subject)]);

/** Single-use simple-SSO tokens (sha256 of the token), valid 6 minutes. */
export const temporaryAuthTokens = sqliteTable("temporary_auth_tokens", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull().unique(),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  createdAt: timestamp("created_at"),
});

export const invites = sqliteTable("invites", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  code: text("code").notNull().unique(),
  status: text("status", { enum: ["pending", "claimed", "disabled"] }).notNull().default("pending"),
  claimedBy: integer("claimed_by").references(() => users.id, { onDelete: "set null" }),
  /** JSON array of workspace ids the new account joins. */
  workspaceIds: text("workspace_ids").notNull().default("[]"),
  createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: timestamp("created_at"),
  lastUpdatedAt: timestamp("last_updated_at"),
});

export const eventLogs = sqliteTable("event_logs", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  event: text("event").notNull(),
  /** JSON object. */
  metadata: text("metadata"),
  userId: integer("user_id"),
  occurredAt: timestamp("occurred_at"),
}, (table) => [index("event_logs_event_idx").on(table.event)]);
