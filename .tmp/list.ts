import { createApp } from "/work/wt-roles24/server/app.ts";
import { createTestApp } from "/work/wt-roles24/server/testing/test_app.ts";
await using app = await createTestApp();
for (const r of createApp(app.deps).routes) if (r.method !== "ALL" && /workspace|export-chat|browser-extension\/embed/.test(r.path) && !r.path.startsWith("/api/v1")) console.log(r.method, r.path);
