import { defineConfig, type Plugin } from "vite";
import en from "./client/locales/en.json" with { type: "json" };

/** The widget needs only the `chatWidget` texts of locales/en.json: the rest of the file stays out of it. */
function widgetTexts(): Plugin {
  return {
    name: "lectern-widget-texts",
    enforce: "pre",
    load(id) {
      if (/[\\/]client[\\/]locales[\\/]en\.json$/.test(id.split("?")[0])) {
        return JSON.stringify({ chatWidget: en.chatWidget });
      }
    },
  };
}

// The embeddable chat widget (client/embed/widget.ts): one self-contained script for other web sites, built
// after the main client into dist/static/embed/ (scripts/build_client.ts) and served at
// /embed/lectern-chat-widget.min.js.
export default defineConfig({
  root: ".",
  publicDir: false,
  plugins: [widgetTexts()],
  build: {
    outDir: "dist/static/embed",
    emptyOutDir: true,
    sourcemap: false,
    target: "es2022",
    minify: true,
    copyPublicDir: false,
    lib: {
      entry: "client/embed/widget.ts",
      formats: ["iife"],
      name: "LecternChatWidget",
      fileName: () => "lectern-chat-widget.min.js",
    },
  },
});
