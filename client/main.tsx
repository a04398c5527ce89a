import { type ComponentType, createElement } from "react";
import { hydrateRoot } from "react-dom/client";
import "./styles/app.css";
import "./styles/pages.css";
import "./styles/auth.css";
import "./styles/admin.css";
import "./styles/threads.css";
import "./styles/chat.css";
import "./styles/workspace_settings.css";
import "./styles/embedding.css";
import "./styles/documents.css";
import "./styles/live_sync.css";
import "./styles/appearance.css";
import "./styles/search.css";
import "./styles/workspace_chats.css";
import "./styles/embeds.css";
import { detectLanguage, i18n } from "./lib/i18n.ts";
import { SUPPORTED_LANGUAGES } from "../shared/languages.ts";
import { guardPage, pageGuard } from "./lib/page_guard.ts";
import { toast } from "./lib/toast.ts";

type IslandModule = { default: ComponentType<Record<string, unknown>> };
const islands = import.meta.glob<IslandModule>("./islands/*.tsx");

/** Hydrates every server-rendered island on the page with the props the server rendered it with. */
async function hydrateIslands() {
  const elements = Array.from(document.querySelectorAll<HTMLElement>("[data-island]"));
  await Promise.all(elements.map(async (element) => {
    const name = element.dataset.island ?? "";
    const load = islands[`./islands/${name}.tsx`];
    if (!load) {
      console.error(`Unknown island "${name}"`);
      return;
    }
    const module = await load();
    const props = JSON.parse(element.dataset.props ?? "{}");
    hydrateRoot(element, createElement(module.default, props));
    element.dataset.hydrated = "true";
  }));
  document.documentElement.dataset.hydrated = "true";
}

/**
 * The server rendered the page in the language of `<html lang>` (query, cookie, Accept-Language): its texts
 * load before hydration, so the first render matches. Resolves to the language the browser's own detection
 * (DETECTION_ORDER) prefers when that differs, to switch to after hydration.
 */
async function prepareLanguage(): Promise<string | null> {
  const served = document.documentElement.lang || "en";
  const wanted = detectLanguage(SUPPORTED_LANGUAGES);
  if (served !== i18n.language) await (await import("./lib/locales.ts")).speak(served);
  return wanted === served ? null : wanted;
}

/** Guarded pages hydrate only once the visitor may see them; public pages at once. */
async function start() {
  const [outcome, detected] = await Promise.all([guardPage(pageGuard()), prepareLanguage()]);
  if (!outcome.proceed) return;
  await hydrateIslands();
  // A language only the browser could see (a stored one): used after hydration, and remembered for the server.
  if (detected) await (await import("./lib/locales.ts")).choose(detected);
  if (outcome.problem) toast.error(outcome.problem);
}

start();
