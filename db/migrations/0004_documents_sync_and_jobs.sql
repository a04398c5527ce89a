CREATE TABLE `document_sync_executions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`queue_id` integer NOT NULL,
	`status` text DEFAULT 'unknown' NOT NULL,
	`result` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`queue_id`) REFERENCES `document_sync_queues`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `document_sync_executions_queue_idx` ON `document_sync_executions` (`queue_id`);--> statement-breakpoint
CREATE TABLE `document_sync_queues` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_doc_id` integer NOT NULL,
	`stale_after_ms` integer DEFAULT 604800000 NOT NULL,
	`next_sync_at` integer NOT NULL,
	`last_synced_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`workspace_doc_id`) REFERENCES `workspace_documents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `document_sync_queues_workspace_doc_id_unique` ON `document_sync_queues` (`workspace_doc_id`);--> statement-breakpoint
CREATE TABLE `embedding_jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fingerprint` text NOT NULL,
	`config` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
ALTER TABLE `workspaces` ADD `hybrid_search` integer DEFAULT true NOT NULL;