import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast.ts";

/**
 * Copies with the Clipboard API, or by selecting text where that API is missing (plain http): the given
 * input, else a temporary one.
 */
export async function copyText(value: string, input: HTMLInputElement | null = null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(value);
    return true;
  } catch {
    const field = input ??
      document.body.appendChild(Object.assign(document.createElement("input"), { value }));
    try {
      field.focus();
      field.select();
      return document.execCommand("copy");
    } catch {
      return false;
    } finally {
      if (field !== input) field.remove();
    }
  }
}

/** A read-only link or token with a Copy button. */
export function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  async function copy() {
    if (await copyText(value, input.current)) toast.success(t("users.copy.done"));
    else toast.error(t("users.copy.failed"));
  }
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>{label}</label>
      <div className="copy-field">
        <input
          ref={input}
          id={id}
          className="input"
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="button secondary" onClick={copy}>{t("users.copy.button")}</button>
      </div>
    </div>
  );
}
