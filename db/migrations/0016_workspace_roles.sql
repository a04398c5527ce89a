ALTER TABLE `workspace_users` ADD `role` text DEFAULT 'viewer' NOT NULL;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `visible_to_all` integer DEFAULT false NOT NULL;