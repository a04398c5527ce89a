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
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            // Small modules the chat page's first load needs anyway, shared by many screens: each would be a
            // chunk of its own, and one chunk costs less to load (that first load counts against issue 21's 150 KB).
            {
              name: "common",
              test:
                /(client[\\/]lib[\\/](api|latest)|client[\\/]components[\\/](Dialog|TextField|use_dismiss|BrandLogo|LineIcon|FooterIcon)|client[\\/]features[\\/](auth[\\/]use_can_manage|auth[\\/]use_permission|workspace_roles[\\/]use_workspace_role|admin[\\/]requests|settings[\\/]use_debounced|workspace_name|threads[\\/]events)|shared[\\/](logo|limits))\.tsx?$/,
            },
          ],
        },
      },
    },
  },
});
