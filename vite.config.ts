import { defineConfig } from "vite";

// The client: one entry that hydrates islands, each island its own lazily loaded chunk.
export default defineConfig({
  root: ".",
  base: "/static/",
  publicDir: false,
  build: {
    outDir: "dist/static",
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    target: "es2022",
    rolldownOptions: {
      input: { main: "client/main.tsx" },
      // react-toastify marks itself "use client"; that directive means nothing in this bundle.
      onLog(level, log, handler) {
        if (log.code === "MODULE_LEVEL_DIRECTIVE") return;
        handler(level, log);
      },
      output: {
        codeSplitting: {
          groups: [{ name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
        },
      },
    },
  },
});
