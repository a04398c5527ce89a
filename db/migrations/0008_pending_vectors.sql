CREATE TABLE `pending_vectors` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`boot` text NOT NULL,
	`namespace` text NOT NULL,
	`doc_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
