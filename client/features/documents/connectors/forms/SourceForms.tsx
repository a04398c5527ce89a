import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../../../lib/toast.ts";
import { startImportWithData } from "../api.ts";
import { ConfluenceForm } from "./ConfluenceForm.tsx";
import type { ConnectorFormProps } from "./RepoForm.tsx";
import { WebsiteForm } from "./WebsiteForm.tsx";
import { YouTubeForm } from "./YouTubeForm.tsx";

/**
 * Posts a form's payload with `background: true`: the reference's "started" toast, its failure toast (the
 * answer's `reason`), and the import handed to the progress view (which toasts its end, see messages.ts).
 */
function useStart(path: string, startedKey: string, onStarted: ConnectorFormProps["onStarted"]) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  async function submit(payload: object) {
    setBusy(true);
    toast.info(t(startedKey));
    try {
      const started = await startImportWithData(path, payload);
      onStarted(started.import);
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  }
  return { busy, submit };
}

export function YouTubeConnector({ onStarted }: ConnectorFormProps) {
  const { busy, submit } = useStart(
    "/ext/youtube/transcript",
    "connectorForms.youtube.started",
    onStarted,
  );
  return <YouTubeForm onSubmit={submit} busy={busy} />;
}

export function WebsiteConnector({ onStarted }: ConnectorFormProps) {
  const { busy, submit } = useStart(
    "/ext/website-depth",
    "connectorForms.website.started",
    onStarted,
  );
  return <WebsiteForm onSubmit={submit} busy={busy} />;
}

export function ConfluenceConnector({ onStarted }: ConnectorFormProps) {
  const { busy, submit } = useStart(
    "/ext/confluence",
    "connectorForms.confluence.started",
    onStarted,
  );
  return <ConfluenceForm onSubmit={submit} busy={busy} />;
}
