import { loadHistory, resetHistory, streamChat } from "./api.ts";
import {
  type ChatAction,
  chatReducer,
  type ChatState,
  EMPTY_CHAT,
  splitThoughts,
  type WidgetMessage,
} from "./chat.ts";
import type { WidgetSource } from "./frames.ts";
import { type Block, type Inline, parseMarkdown } from "./markdown.ts";
import { type ChatIcon, readableOn, type WidgetOptions } from "./options.ts";
import { openKey, sessionId } from "./session.ts";
import { t } from "./strings.ts";
import { WIDGET_CSS } from "./styles.ts";

/**
 * The widget on the page: a chat bubble in a corner that opens a chat window, all inside one shadow root.
 * Every text (the model's answers, the sources, the server's messages, the site's data-* texts) is set as
 * text or built into elements by the markdown reader (client/embed/markdown.ts); nothing is set as HTML.
 */

const SVG = "http://www.w3.org/2000/svg";
const ICONS: Record<ChatIcon | "close", string> = {
  plus: "M12 5v14M5 12h14",
  chatBubble: "M4 5h16v11H9l-5 4z",
  support:
    "M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM9.2 9.2a2.9 2.9 0 1 1 3.9 2.7c-.7.3-1.1.9-1.1 1.6v.5M12 17h.01",
  search: "M11 4a7 7 0 1 0 0 14a7 7 0 1 0 0-14zM20 20l-4-4",
  search2: "M10 4a6 6 0 1 0 0 12a6 6 0 1 0 0-12zM20 20l-5.6-5.6M7.5 10h5",
  magic:
    "M12 3l1.8 4.2L18 9l-4.2 1.8L12 15l-1.8-4.2L6 9l4.2-1.8zM18 15l.9 2.1L21 18l-2.1.9L18 21l-.9-2.1L15 18l2.1-.9z",
  close: "M6 6l12 12M18 6L6 18",
};

function icon(name: ChatIcon | "close"): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", ICONS[name]);
  svg.append(path);
  return svg;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className = "",
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function inlines(nodes: Inline[]): Node[] {
  return nodes.map((node): Node => {
    switch (node.kind) {
      case "text":
        return document.createTextNode(node.text);
      case "code":
        return el("code", "", node.text);
      case "br":
        return el("br");
      case "strong":
      case "em": {
        const wrap = el(node.kind === "strong" ? "strong" : "em");
        wrap.append(...inlines(node.children));
        return wrap;
      }
      case "link": {
        const link = el("a");
        link.href = node.href;
        link.target = "_blank";
        link.rel = "noopener noreferrer nofollow";
        link.append(...inlines(node.children));
        return link;
      }
    }
  });
}

function blocks(nodes: Block[]): Node[] {
  return nodes.map((node): Node => {
    switch (node.kind) {
      case "paragraph": {
        const p = el("p");
        p.append(...inlines(node.children));
        return p;
      }
      case "heading": {
        const heading = el(`h${Math.min(6, Math.max(1, node.level))}` as "h3");
        heading.append(...inlines(node.children));
        return heading;
      }
      case "code": {
        const pre = el("pre");
        const code = el("code", "", node.text);
        if (node.language) code.dataset.language = node.language;
        pre.append(code);
        return pre;
      }
      case "quote": {
        const quote = el("blockquote");
        quote.append(...blocks(node.children));
        return quote;
      }
      case "list": {
        const list = el(node.ordered ? "ol" : "ul");
        if (node.ordered && node.start !== 1) (list as HTMLOListElement).start = node.start;
        for (const item of node.items) {
          const li = el("li");
          li.append(...inlines(item));
          list.append(li);
        }
        return list;
      }
      case "rule":
        return el("hr");
    }
  });
}

/** The sources under an answer: one entry per document (chunks of the same title are shown together). */
function sourceList(sources: WidgetSource[]): HTMLElement {
  const box = el("div", "sources");
  box.append(el("p", "sources-title", t("chatWidget.sources")));
  const list = el("ol");
  const byTitle = new Map<string, WidgetSource[]>();
  for (const source of sources) {
    const title = source.title || t("chatWidget.untitledSource");
    byTitle.set(title, [...(byTitle.get(title) ?? []), source]);
  }
  for (const [title, chunks] of byTitle) {
    const item = el("li");
    const details = el("details");
    const summary = el("summary", "", title);
    details.append(summary);
    const url = chunks.find((chunk) => chunk.url)?.url;
    if (url) {
      const link = el("a", "", url);
      link.href = url;
      link.target = "_blank";
      link.rel = "noopener noreferrer nofollow";
      const line = el("p");
      line.append(link);
      details.append(line);
    }
    for (const chunk of chunks) if (chunk.text.trim()) details.append(el("p", "", chunk.text.trim()));
    item.append(details);
    list.append(item);
  }
  box.append(list);
  return box;
}

function messageNode(message: WidgetMessage, options: WidgetOptions): HTMLElement {
  if (message.role === "user") return el("div", "msg user", message.content);
  const { text, thoughts } = splitThoughts(message.content);
  const failed = message.error !== null && text === "";
  const node = el("div", failed ? "msg assistant failed" : "msg assistant");
  if (options.showThoughts && thoughts.length > 0) {
    const box = el("details", "thoughts");
    box.append(
      el("summary", "", t("chatWidget.thoughts")),
      ...thoughts.map((thought) => el("p", "", thought)),
    );
    node.append(box);
  }
  if (text !== "") {
    const md = el("div", "md");
    md.append(...blocks(parseMarkdown(text)));
    node.append(md);
  } else if (message.pending || (message.streaming && message.error === null)) {
    node.append(el("span", "thinking", t("chatWidget.thinking")));
  }
  if (message.error !== null) {
    const error = el("div", "error", message.error || t("chatWidget.unknownError"));
    error.setAttribute("role", "alert");
    node.append(error);
  }
  if (message.sources.length > 0 && !message.streaming) node.append(sourceList(message.sources));
  return node;
}

/** What a message looks like; a message whose look did not change keeps its element (and its open sources). */
function look(message: WidgetMessage): string {
  return JSON.stringify([
    message.content,
    message.error,
    message.pending,
    message.streaming,
    message.sources,
  ]);
}

function safeStorage(kind: "localStorage" | "sessionStorage"): Storage | null {
  try {
    return globalThis[kind] ?? null;
  } catch {
    return null;
  }
}

export class ChatWidget {
  readonly host: HTMLElement;
  private readonly root: HTMLDivElement;
  private readonly bubble: HTMLButtonElement;
  private readonly window: HTMLElement;
  private readonly banner: HTMLDivElement;
  private readonly list: HTMLDivElement;
  private readonly input: HTMLTextAreaElement;
  private readonly send: HTMLButtonElement;
  private readonly reset: HTMLButtonElement;
  private readonly intro: HTMLElement;
  private state: ChatState = EMPTY_CHAT;
  private readonly session: string;
  private historyLoaded = false;
  private controller: AbortController | null = null;
  private readonly rendered = new Map<string, { look: string; node: HTMLElement }>();

  constructor(private readonly options: WidgetOptions) {
    this.session = sessionId(safeStorage("localStorage"), options.embedId);
    this.host = document.createElement("lectern-chat-widget");
    // The page's styles cannot hide or move the host, nor pass anything down to the widget by inheritance.
    this.host.setAttribute(
      "style",
      "all:initial!important;display:block!important;position:static!important",
    );
    const shadow = this.host.attachShadow({ mode: "open" });
    this.addStyles(shadow);

    const siteLang = options.language;
    this.root = el("div", `lw ${options.position} ${options.theme}`);
    this.root.lang = "en";
    if (options.textSize) this.root.style.setProperty("--text", `${options.textSize}px`);
    if (options.windowWidth) this.root.style.setProperty("--width", options.windowWidth);
    if (options.windowHeight) this.root.style.setProperty("--height", options.windowHeight);
    if (options.buttonColor) {
      this.root.style.setProperty("--button", options.buttonColor);
      this.root.style.setProperty("--button-fg", readableOn(options.buttonColor));
    }
    if (options.userBgColor) {
      this.root.style.setProperty("--user-bg", options.userBgColor);
      this.root.style.setProperty("--user-fg", readableOn(options.userBgColor));
    }
    if (options.assistantBgColor) {
      this.root.style.setProperty("--bot-bg", options.assistantBgColor);
      this.root.style.setProperty("--bot-fg", readableOn(options.assistantBgColor));
    }

    this.bubble = el("button", "bubble");
    this.bubble.type = "button";
    this.bubble.setAttribute("aria-label", t("chatWidget.open"));
    this.bubble.setAttribute("aria-expanded", "false");
    this.bubble.append(icon(options.chatIcon));
    this.bubble.addEventListener("click", () => this.open());

    const name = options.assistantName ?? t("chatWidget.assistantName");
    this.window = el("section", "window");
    this.window.setAttribute("role", "dialog");
    this.window.setAttribute("aria-label", name);
    this.window.hidden = true;
    this.window.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.close();
    });

    const header = el("div", "header");
    if (!options.noHeader) {
      if (options.brandImageUrl) {
        const brand = el("img", "brand");
        brand.src = options.brandImageUrl;
        brand.alt = name;
        header.append(brand, el("span", "spacer"));
      } else {
        if (options.assistantIcon) {
          const avatar = el("img", "avatar");
          avatar.src = options.assistantIcon;
          avatar.alt = "";
          header.append(avatar);
        }
        const title = el("span", "title", name);
        if (options.assistantName) title.lang = siteLang;
        header.append(title);
      }
    } else header.append(el("span", "spacer"));
    this.reset = el("button", "tool", options.resetChatText ?? t("chatWidget.reset"));
    this.reset.type = "button";
    if (options.resetChatText) this.reset.lang = siteLang;
    this.reset.addEventListener("click", () => void this.resetChat());
    const close = el("button", "icon");
    close.type = "button";
    close.setAttribute("aria-label", t("chatWidget.close"));
    close.append(icon("close"));
    close.addEventListener("click", () => this.close());
    header.append(this.reset, close);

    this.banner = el("div", "banner");
    this.banner.setAttribute("role", "alert");
    this.banner.hidden = true;

    this.list = el("div", "messages");
    this.list.setAttribute("aria-live", "polite");
    this.intro = el("div", "intro");
    const greeting = el("p", "greeting", options.greeting ?? t("chatWidget.greeting"));
    if (options.greeting) greeting.lang = siteLang;
    this.intro.append(greeting);
    if (options.defaultMessages.length > 0) {
      const suggestions = el("div", "suggestions");
      suggestions.setAttribute("role", "group");
      suggestions.setAttribute("aria-label", t("chatWidget.suggestions"));
      suggestions.lang = siteLang;
      for (const text of options.defaultMessages) {
        const button = el("button", "suggestion", text);
        button.type = "button";
        button.addEventListener("click", () => this.ask(text));
        suggestions.append(button);
      }
      this.intro.append(suggestions);
    }

    const composer = el("form", "composer");
    this.input = el("textarea");
    this.input.rows = 1;
    this.input.setAttribute("aria-label", t("chatWidget.messageLabel"));
    this.input.placeholder = options.sendMessageText ?? t("chatWidget.placeholder");
    this.input.maxLength = 20000;
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        composer.requestSubmit();
      }
    });
    this.input.addEventListener("input", () => this.fitInput());
    this.send = el("button", "send", t("chatWidget.send"));
    this.send.type = "submit";
    composer.append(this.input, this.send);
    composer.addEventListener("submit", (event) => {
      event.preventDefault();
      if (this.state.busy) this.stop();
      else if (this.ask(this.input.value)) {
        this.input.value = "";
        this.fitInput();
      }
    });

    this.window.append(header, this.banner, this.list, composer);
    const footer = this.footer();
    if (footer) this.window.append(footer);
    this.root.append(this.bubble, this.window);
    shadow.append(this.root);
    this.render();
  }

  private addStyles(shadow: ShadowRoot): void {
    // A constructed sheet is not an inline <style>, so a host page's CSP without 'unsafe-inline' allows it.
    try {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(WIDGET_CSS);
      shadow.adoptedStyleSheets = [sheet];
    } catch {
      shadow.append(el("style", "", WIDGET_CSS));
    }
  }

  private footer(): HTMLElement | null {
    const { options } = this;
    const parts: HTMLElement[] = [];
    if (options.supportEmail) {
      const mail = el("a", "", t("chatWidget.emailSupport"));
      mail.href = `mailto:${options.supportEmail}`;
      parts.push(mail);
    }
    if (!options.noSponsor) {
      const text = options.sponsorText ?? t("chatWidget.poweredBy");
      if (options.sponsorLink) {
        const link = el("a", "", text);
        link.href = options.sponsorLink;
        link.target = "_blank";
        link.rel = "noopener noreferrer";
        parts.push(link);
      } else parts.push(el("span", "", text));
    }
    if (parts.length === 0) return null;
    const footer = el("div", "footer");
    footer.append(...parts);
    return footer;
  }

  /** Puts the widget on the page; it opens at once with data-open-on-load or when it was open before. */
  mount(parent: HTMLElement): void {
    parent.append(this.host);
    let wasOpen = false;
    try {
      wasOpen = safeStorage("sessionStorage")?.getItem(openKey(this.options.embedId)) === "1";
    } catch {
      // no storage
    }
    if (this.options.openOnLoad || wasOpen) this.open(false);
  }

  open(focus = true): void {
    this.window.hidden = false;
    this.bubble.hidden = true;
    this.bubble.setAttribute("aria-expanded", "true");
    this.remember(true);
    if (!this.historyLoaded) {
      this.historyLoaded = true;
      void this.loadHistory();
    }
    this.scrollDown();
    if (focus) this.input.focus();
  }

  close(): void {
    this.window.hidden = true;
    this.bubble.hidden = false;
    this.bubble.setAttribute("aria-expanded", "false");
    this.remember(false);
    this.bubble.focus();
  }

  private remember(open: boolean): void {
    try {
      const storage = safeStorage("sessionStorage");
      if (open) storage?.setItem(openKey(this.options.embedId), "1");
      else storage?.removeItem(openKey(this.options.embedId));
    } catch {
      // no storage
    }
  }

  private async loadHistory(): Promise<void> {
    const result = await loadHistory(this.options, this.session);
    if (result.ok) this.dispatch({ type: "history", entries: result.entries });
    else this.showBanner(result.error);
  }

  private showBanner(text: string | null): void {
    this.banner.textContent = text ?? "";
    this.banner.hidden = text === null;
  }

  /** Sends a question; false when nothing was sent (empty, or an answer is still coming). */
  private ask(text: string): boolean {
    const message = text.trim();
    if (message === "" || this.state.busy) return false;
    this.showBanner(null);
    this.dispatch({ type: "send", text: message, userId: crypto.randomUUID(), replyId: crypto.randomUUID() });
    const controller = new AbortController();
    this.controller = controller;
    void streamChat(
      this.options,
      this.session,
      message,
      (frame) => {
        if (this.controller === controller) this.dispatch({ type: "frame", frame });
      },
      controller.signal,
    ).finally(() => {
      if (this.controller !== controller) return;
      this.controller = null;
      this.dispatch({ type: "ended" });
    });
    return true;
  }

  private stop(): void {
    const controller = this.controller;
    this.controller = null;
    controller?.abort();
    this.dispatch({ type: "ended" });
  }

  private async resetChat(): Promise<void> {
    if (this.state.busy) this.stop();
    this.reset.disabled = true;
    const failure = await resetHistory(this.options, this.session);
    this.reset.disabled = false;
    if (failure !== null) {
      this.showBanner(failure);
      return;
    }
    this.showBanner(null);
    this.dispatch({ type: "reset" });
    this.input.focus();
  }

  private dispatch(action: ChatAction): void {
    this.state = chatReducer(this.state, action);
    this.render();
  }

  private fitInput(): void {
    this.input.style.height = "auto";
    this.input.style.height = `${Math.min(this.input.scrollHeight + 2, 120)}px`;
  }

  private scrollDown(): void {
    this.list.scrollTop = this.list.scrollHeight;
  }

  private render(): void {
    const nearEnd = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 80;
    const nodes: HTMLElement[] = [];
    const seen = new Set<string>();
    for (const message of this.state.messages) {
      seen.add(message.id);
      const current = look(message);
      let entry = this.rendered.get(message.id);
      if (!entry || entry.look !== current) {
        const node = messageNode(message, this.options);
        if (entry) entry.node.replaceWith(node);
        entry = { look: current, node };
        this.rendered.set(message.id, entry);
      }
      nodes.push(entry.node);
    }
    for (const id of [...this.rendered.keys()]) if (!seen.has(id)) this.rendered.delete(id);
    if (nodes.length === 0) nodes.push(this.intro);
    const children = [...this.list.children];
    if (children.length !== nodes.length || children.some((child, index) => child !== nodes[index])) {
      this.list.replaceChildren(...nodes);
    }
    this.send.textContent = this.state.busy ? t("chatWidget.stop") : t("chatWidget.send");
    if (nearEnd) this.scrollDown();
  }
}
