import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { SettingField } from "../../../shared/providers/llm_catalog.ts";
import { Spinner } from "../../components/Spinner.tsx";
import type { useEndpointAutoDetect } from "./use_auto_detect.ts";

/**
 * A local server's endpoint: what auto-detect is doing or found, and the field itself behind "show" (open from
 * the start when an endpoint is saved), with the addresses auto-detect tried in vain until the typed one lists
 * models. `renderField` draws the field with the extra content under it.
 */
export function EndpointField(
  { field, providerName, endpoint, detect, modelsListed, renderField }: {
    field: SettingField;
    providerName: string;
    endpoint: string;
    detect: ReturnType<typeof useEndpointAutoDetect>;
    modelsListed: boolean;
    renderField: (field: SettingField, extra: ReactNode) => ReactNode;
  },
) {
  const { t } = useTranslation();
  const sectionId = `setting-${field.key}-manual`;
  const busy = detect.state === "detecting";
  const failures = detect.state === "failed" && detect.failed.length > 0 && !modelsListed;
  return (
    <div className="provider-endpoint">
      <div className="provider-endpoint-bar">
        {busy && (
          <span className="auto-detect-status" role="status">
            <Spinner label={t("settings.autoDetect.detecting", { provider: providerName })} />
            <span>{t("settings.autoDetect.detecting", { provider: providerName })}</span>
          </span>
        )}
        {detect.state === "found" && (
          <span className="auto-detect-status">
            {t("settings.autoDetect.foundAt", { provider: providerName, endpoint })}
          </span>
        )}
        <button
          type="button"
          className="button secondary small"
          aria-expanded={detect.manualShown}
          aria-controls={sectionId}
          onClick={detect.toggleManual}
        >
          {detect.manualShown ? t("settings.autoDetect.hide") : t("settings.autoDetect.show")}
        </button>
      </div>
      {detect.manualShown && (
        <div className="provider-endpoint-manual" id={sectionId}>
          {renderField(
            field,
            <>
              {failures && (
                <ul className="auto-detect-failures">
                  {detect.failed.map((url) => (
                    <li key={url}>
                      {t("settings.autoDetect.didNotResolve", { provider: providerName, endpoint: url })}
                    </li>
                  ))}
                </ul>
              )}
              {!busy && (
                <div>
                  <button type="button" className="button secondary small" onClick={detect.run}>
                    {t("settings.autoDetect.run")}
                  </button>
                </div>
              )}
            </>,
          )}
        </div>
      )}
    </div>
  );
}
