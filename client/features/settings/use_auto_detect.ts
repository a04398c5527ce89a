import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AutoDetect, ModelLookup } from "../../../shared/providers/llm_catalog.ts";
import { toast } from "../../lib/toast.ts";
import { autoDetectAvailable, autoDetectCandidates, detectEndpoint } from "./auto_detect.ts";
import { fetchCustomModels } from "./model_lookup.ts";

export type AutoDetectState = "idle" | "detecting" | "found" | "failed";

/** The last auto-detect toast: a new attempt replaces it rather than stacking another. */
let lastToast: string | number | undefined;
function replaceToast(show: () => string | number) {
  // Without an id dismiss would close every toast.
  if (lastToast !== undefined) toast.dismiss(lastToast);
  lastToast = show();
}

type Options = {
  provider: { name: string; lookup?: ModelLookup; autoDetect?: AutoDetect };
  /** The base path the form holds when it first shows: auto-detect runs by itself only when it is empty. */
  initialBasePath: string;
  setBasePath: (value: string) => void;
  /** False on a read-only page: nothing is looked up. */
  enabled: boolean;
};

/**
 * Endpoint auto-detect for a local model server: idle, detecting, found (the endpoint is
 * filled and the manual input hidden behind a toggle) or failed (the manual input shown). It runs once by
 * itself when no base path is saved, and again on request.
 */
export function useEndpointAutoDetect({ provider, initialBasePath, setBasePath, enabled }: Options) {
  const { t } = useTranslation();
  const available = autoDetectAvailable(enabled, provider);
  const [state, setState] = useState<AutoDetectState>("idle");
  const [failed, setFailed] = useState<string[]>([]);
  const [manualShown, setManualShown] = useState(!available || initialBasePath.trim() !== "");
  const controller = useRef<AbortController | null>(null);

  const run = useCallback(() => {
    if (!provider.autoDetect || !provider.lookup) return;
    const lookup = provider.lookup;
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setState("detecting");
    setFailed([]);
    setManualShown(false);
    const candidates = autoDetectCandidates(
      [provider.autoDetect.suffix, ...(provider.autoDetect.suffixes ?? [])],
      globalThis.location?.hostname,
    );
    detectEndpoint(
      candidates,
      (endpoint, signal) => fetchCustomModels({ provider: lookup.provider, basePath: endpoint }, signal),
      { signal: current.signal },
    ).then((result) => {
      if (current.signal.aborted) return;
      if (result.endpoint) {
        setBasePath(result.endpoint);
        setState("found");
        setManualShown(false);
        replaceToast(() => toast.success(t("settings.autoDetect.found")));
      } else {
        setFailed(result.failed);
        setState("failed");
        setManualShown(true);
        replaceToast(() => toast.info(t("settings.autoDetect.failed")));
      }
    });
  }, [provider, setBasePath, t]);

  /**
   * The endpoint was typed in: a detection under way stops, so that the endpoint it finds later does not replace
   * what was typed.
   */
  const typed = useCallback(() => {
    const current = controller.current;
    if (!current || current.signal.aborted) return;
    current.abort();
    setState((state) => (state === "detecting" ? "idle" : state));
  }, []);

  useEffect(() => {
    if (available && initialBasePath.trim() === "") run();
    return () => controller.current?.abort();
    // Once, when the provider's form first shows.
  }, []);

  return {
    available,
    state,
    failed,
    manualShown: !available || manualShown,
    toggleManual: () => setManualShown((shown) => !shown),
    run,
    typed,
  };
}
