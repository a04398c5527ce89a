CREATE TABLE `workspace_parsed_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`filename` text NOT NULL,
	`workspace_id` integer NOT NULL,
	`user_id` integer,
	`thread_id` integer,
	`metadata` text,
	`token_count_estimate` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`thread_id`) REFERENCES `workspace_threads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workspace_parsed_files_filename_unique` ON `workspace_parsed_files` (`filename`);--> statement-breakpoint
CREATE INDEX `workspace_parsed_files_scope_idx` ON `workspace_parsed_files` (`workspace_id`,`thread_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `workspace_parsed_files_user_idx` ON `workspace_parsed_files` (`user_id`);