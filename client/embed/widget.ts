/**
 * The embeddable chat widget (built alone to dist/static/embed/lectern-chat-widget.min.js, served at
 * /embed/lectern-chat-widget.min.js). A web site includes it with
 * `<script data-embed-id="…" data-base-api-url="https://host/api/embed" src="https://host/embed/lectern-chat-widget.min.js"></script>`;
 * the options are the script tag's data-* attributes (client/embed/options.ts).
 */
import { parseOptions } from "./options.ts";
import { ChatWidget } from "./view.ts";

const MOUNTED = "lecternMounted";

/** The script tags to start from: the running one, or (loaded as a module) every widget tag not yet started. */
function scriptTags(): HTMLScriptElement[] {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement) return [current];
  return [...document.querySelectorAll<HTMLScriptElement>("script[data-embed-id]")]
    .filter((script) => /lectern-chat-widget/.test(script.src));
}

function start(): void {
  for (const script of scriptTags()) {
    if (script.dataset[MOUNTED]) continue;
    script.dataset[MOUNTED] = "true";
    const parsed = parseOptions({ ...script.dataset });
    if (!parsed.ok) {
      console.error(`Lectern chat widget: ${parsed.error}`);
      continue;
    }
    if (parsed.ignored.length > 0) {
      console.warn(
        `Lectern chat widget: these data-* options were not valid and were ignored: ${
          parsed.ignored.join(", ")
        }.`,
      );
    }
    const widget = new ChatWidget(parsed.options);
    const mount = () => widget.mount(document.body);
    if (document.body) mount();
    else document.addEventListener("DOMContentLoaded", mount, { once: true });
  }
}

start();
