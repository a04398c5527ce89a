import en from "../locales/en.json" with { type: "json" };

/**
 * The widget's texts: the `chatWidget` section of locales/en.json, named by their full key (so the locale test
 * checks them like the UI's). The widget's build (vite.widget.config.ts) bundles only that section.
 */
export type WidgetText = `chatWidget.${keyof typeof en.chatWidget}`;

const TEXTS: Record<string, string> = en.chatWidget;

/** A widget text with its `{{name}}` placeholders filled in. */
export function t(key: WidgetText, values: Record<string, string | number> = {}): string {
  const text = TEXTS[key.slice("chatWidget.".length)] ?? key;
  return text.replace(
    /\{\{(\w+)\}\}/g,
    (whole, name: string) => name in values ? String(values[name]) : whole,
  );
}
