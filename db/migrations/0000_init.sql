CREATE TABLE `documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`location` text NOT NULL,
	`folder` text NOT NULL,
	`filename` text NOT NULL,
	`title` text NOT NULL,
	`metadata` text NOT NULL,
	`word_count` integer DEFAULT 0 NOT NULL,
	`token_count_estimate` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `documents_location_unique` ON `documents` (`location`);--> statement-breakpoint
CREATE INDEX `documents_folder_idx` ON `documents` (`folder`);--> statement-breakpoint
CREATE TABLE `system_settings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`label` text NOT NULL,
	`value` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `system_settings_label_unique` ON `system_settings` (`label`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text,
	`password` text NOT NULL,
	`pfp_filename` text,
	`role` text DEFAULT 'default' NOT NULL,
	`suspended` integer DEFAULT 0 NOT NULL,
	`seen_recovery_codes` integer DEFAULT false NOT NULL,
	`daily_message_limit` integer,
	`bio` text DEFAULT '',
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);--> statement-breakpoint
CREATE TABLE `workspace_chats` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`prompt` text NOT NULL,
	`response` text NOT NULL,
	`include` integer DEFAULT true NOT NULL,
	`user_id` integer,
	`thread_id` integer,
	`api_session_id` text,
	`feedback_score` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`thread_id`) REFERENCES `workspace_threads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `workspace_chats_history_idx` ON `workspace_chats` (`workspace_id`,`thread_id`,`id`);--> statement-breakpoint
CREATE TABLE `workspace_documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`doc_id` text NOT NULL,
	`filename` text NOT NULL,
	`docpath` text NOT NULL,
	`workspace_id` integer NOT NULL,
	`metadata` text,
	`pinned` integer DEFAULT false NOT NULL,
	`watched` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workspace_documents_doc_id_unique` ON `workspace_documents` (`doc_id`);--> statement-breakpoint
CREATE INDEX `workspace_documents_workspace_idx` ON `workspace_documents` (`workspace_id`,`docpath`);--> statement-breakpoint
CREATE TABLE `workspace_threads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`workspace_id` integer NOT NULL,
	`user_id` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workspace_threads_slug_unique` ON `workspace_threads` (`slug`);--> statement-breakpoint
CREATE INDEX `workspace_threads_workspace_idx` ON `workspace_threads` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `workspaces` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`vector_tag` text,
	`open_ai_temp` real,
	`open_ai_history` integer DEFAULT 20 NOT NULL,
	`open_ai_prompt` text,
	`similarity_threshold` real DEFAULT 0.25 NOT NULL,
	`chat_provider` text,
	`chat_model` text,
	`top_n` integer DEFAULT 4 NOT NULL,
	`chat_mode` text DEFAULT 'chat' NOT NULL,
	`pfp_filename` text,
	`agent_provider` text,
	`agent_model` text,
	`query_refusal_response` text,
	`vector_search_mode` text DEFAULT 'default' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workspaces_slug_unique` ON `workspaces` (`slug`);