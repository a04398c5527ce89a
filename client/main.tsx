import { type ComponentType, createElement } from "react";
import { hydrateRoot } from "react-dom/client";
import "./styles/app.css";
import "./styles/pages.css";
import "./styles/auth.css";
import "./styles/admin.css";
import "./lib/i18n.ts";

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

hydrateIslands();
