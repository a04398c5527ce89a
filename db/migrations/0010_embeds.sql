CREATE TABLE `embed_chats` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`prompt` text NOT NULL,
	`response` text NOT NULL,
	`session_id` text NOT NULL,
	`include` integer DEFAULT true NOT NULL,
	`connection_information` text,
	`embed_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`embed_id`) REFERENCES `embed_configs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `embed_chats_session_idx` ON `embed_chats` (`embed_id`,`session_id`,`id`);--> statement-breakpoint
CREATE INDEX `embed_chats_created_idx` ON `embed_chats` (`embed_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `embed_configs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uuid` text NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`chat_mode` text DEFAULT 'query' NOT NULL,
	`allowlist_domains` text,
	`allow_model_override` integer DEFAULT false NOT NULL,
	`allow_temperature_override` integer DEFAULT false NOT NULL,
	`allow_prompt_override` integer DEFAULT false NOT NULL,
	`max_chats_per_day` integer,
	`max_chats_per_session` integer,
	`message_limit` integer DEFAULT 20,
	`workspace_id` integer NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `embed_configs_uuid_unique` ON `embed_configs` (`uuid`);--> statement-breakpoint
CREATE INDEX `embed_configs_workspace_idx` ON `embed_configs` (`workspace_id`);