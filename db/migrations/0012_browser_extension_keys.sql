CREATE TABLE `browser_extension_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`secret_hash` text NOT NULL,
	`masked` text NOT NULL,
	`user_id` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_used_at` integer,
	`last_updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `browser_extension_keys_secret_hash_unique` ON `browser_extension_keys` (`secret_hash`);--> statement-breakpoint
CREATE INDEX `browser_extension_keys_user_idx` ON `browser_extension_keys` (`user_id`);