import { type Context, Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { readForm, uploadLimit } from "../http/form.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { fail, withErrorBody } from "../errors.ts";
import { LABELS } from "../settings/service.ts";
import { MAX_LOGO_BYTES, WelcomeMessagesInput } from "../../shared/api/appearance.ts";
import { LOGO_TOO_LARGE, type LogoTheme } from "./logo.ts";
import { branding, customLogo, saveWelcomeMessages, setLogo, unsetLogo, welcomeMessages } from "./service.ts";

/** The built-in logo: the product's name set in its accent colour. */
export const DEFAULT_LOGO =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 80" role="img" aria-label="Lectern"><rect width="80" height="80" rx="18" fill="#2f5d50"/><path d="M26 20h10v32h22v8H26z" fill="#fff"/><text x="98" y="54" font-family="system-ui, sans-serif" font-size="40" font-weight="800" fill="#2f5d50">Lectern</text></svg>`;
/** The built-in logo for dark backgrounds: the same, in a lighter tint. */
export const DEFAULT_LOGO_DARK = DEFAULT_LOGO.replaceAll("#2f5d50", "#8cc7b3").replace(
  'fill="#fff"',
  'fill="#10231d"',
);

/** An SVG answered to anyone can never run: no script, no outside loads, and never sniffed as HTML. */
export const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

/** The public branding texts are cached for an hour, as the reference's client keeps them (spec 01 §9). */
const BRANDING_CACHE = "public, max-age=3600";

/** A refusal carries its sentence as `message` too: the reference's client reads that field. */
const refusal = (message: string) => ({ success: false, error: message, message });

function themeOf(value: string | undefined | null): LogoTheme {
  return value === "light" ? "light" : "dark";
}

/** The theme an upload or removal is for: only `dark` names the dark variant. */
function variantOf(value: unknown): LogoTheme | null {
  return value === "dark" ? "dark" : value === "light" ? "light" : null;
}

/** Branding calls that need no login: the login screen and the shell show them before anyone signs in. */
export function publicAppearanceRoutes(deps: Deps) {
  const cached = (c: Context<AppEnv>) => c.header("Cache-Control", BRANDING_CACHE);
  return new Hono<AppEnv>()
    .get("/system/support-email", (c) => {
      cached(c);
      const email = branding(deps).supportEmail;
      return c.json({ supportEmail: email, email });
    })
    .get("/system/custom-app-name", (c) => {
      cached(c);
      const name = branding(deps).customAppName;
      return c.json({ customAppName: name, appName: name });
    })
    .get("/system/footer-data", (c) => {
      cached(c);
      return c.json({ footerData: JSON.stringify(branding(deps).footerLinks) });
    })
    .get("/system/is-default-logo", (c) => {
      const logo = branding(deps).logo;
      // Besides the reference's flag: which variants are custom, and the stamp of their addresses.
      return c.json({
        isDefaultLogo: logo === null,
        light: Boolean(deps.settings.label(LABELS.logoFilename)),
        dark: Boolean(deps.settings.label(LABELS.logoDarkFilename)),
        version: logo?.version ?? null,
      });
    })
    .get("/system/logo", async (c) => {
      // The reference reads a missing theme as dark.
      const theme = themeOf(c.req.query("theme"));
      const logo = await customLogo(deps, theme);
      const current = branding(deps).logo;
      c.header("X-Is-Custom-Logo", logo ? "true" : "false");
      c.header("Access-Control-Expose-Headers", "X-Is-Custom-Logo, Content-Disposition, Content-Type");
      c.header("X-Content-Type-Options", "nosniff");
      // A page asks with the logo's stamp (`?v=`), which changes with every upload: that address never goes stale.
      const versioned = current !== null && c.req.query("v") === current.version;
      c.header("Cache-Control", versioned ? "public, max-age=31536000, immutable" : "no-cache");
      const type = logo?.type ?? "image/svg+xml";
      if (type === "image/svg+xml") c.header("Content-Security-Policy", SVG_POLICY);
      const extension = type.split("/")[1].replace("svg+xml", "svg").replace("jpeg", "jpg");
      c.header("Content-Disposition", `inline; filename="${logo ? "logo" : "lectern-logo"}.${extension}"`);
      if (!logo) {
        return c.body(theme === "dark" ? DEFAULT_LOGO_DARK : DEFAULT_LOGO, 200, { "Content-Type": type });
      }
      return c.body(logo.bytes, 200, { "Content-Type": type });
    });
}

/** Appearance calls behind the login: the logo, the welcome messages. Changing them is for admins. */
export function appearanceRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .post(
      "/system/upload-logo",
      requirePermission("settings:manage", refusal),
      uploadLimit(MAX_LOGO_BYTES, LOGO_TOO_LARGE),
      (c) =>
        withErrorBody(refusal, async () => {
          const form = await readForm(c);
          const file = form.logo;
          if (!(file instanceof File)) {
            fail("invalid_input", 'No logo file provided: use a multipart form with the field "logo".');
          }
          const theme = variantOf(c.req.query("theme") ?? form.theme) ?? "light";
          await setLogo(deps, new Uint8Array(await file.arrayBuffer()), theme);
          deps.log.info("Logo uploaded", { theme });
          return c.json({ success: true, error: null, message: "Logo uploaded successfully." });
        }),
    )
    .get("/system/remove-logo", requirePermission("settings:manage", refusal), async (c) => {
      const theme = variantOf(c.req.query("theme"));
      // Without a theme (the reference's client) both variants go: the default logo shows again.
      await unsetLogo(deps, theme);
      deps.log.info("Logo removed", { theme: theme ?? "all" });
      return c.json({ success: true, error: null, message: "Logo removed successfully." });
    })
    .get("/system/welcome-messages", (c) => c.json({ success: true, welcomeMessages: welcomeMessages(deps) }))
    .post("/system/set-welcome-messages", requirePermission("settings:manage", refusal), async (c) => {
      const { messages } = await parseJson(c, WelcomeMessagesInput, refusal);
      await saveWelcomeMessages(deps, messages);
      deps.log.info("Welcome messages saved", { count: messages.length });
      return c.json({ success: true, error: null, message: "Welcome messages saved successfully." });
    });
}
