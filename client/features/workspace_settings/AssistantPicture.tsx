import { type ChangeEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast.ts";
import { fetchPicture, PICTURE_TYPES, removePicture, uploadPicture } from "./api.ts";
import { initials, pictureProblem } from "./picture.ts";

/**
 * The assistant's profile picture for this workspace: the stored one, a preview of a chosen file while it
 * uploads, and removal.
 */
export function AssistantPicture({ slug, name }: { slug: string; name: string }) {
  const { t } = useTranslation();
  const k = (key: string, options?: Record<string, unknown>) =>
    t(`workspaceSettings.picture.${key}`, options ?? {});
  /** The picture shown: the server's, or the chosen file's preview; null for none. */
  const [url, setUrl] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [loaded, setLoaded] = useState(false);
  const [busy, setBusy] = useState<"upload" | "remove" | null>(null);
  /** The chosen file's preview, shown until the stored picture has loaded again. */
  const preview = useRef<string | null>(null);
  const dropPreview = () => {
    if (preview.current) URL.revokeObjectURL(preview.current);
    preview.current = null;
  };

  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    fetchPicture(slug, controller.signal)
      .then((blob) => {
        objectUrl = blob && blob.type.startsWith("image/") ? URL.createObjectURL(blob) : null;
        setUrl(objectUrl);
        setLoaded(true);
        dropPreview();
      })
      .catch((caught: Error) => {
        if (caught.name === "AbortError") return;
        setLoaded(true);
        toast.error(k("fetchFailed"));
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [slug, version]);

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const input = event.target;
    const file = input.files?.[0];
    input.value = "";
    if (!file) return;
    const problem = pictureProblem(file);
    if (problem === "wrongType") {
      toast.error(k("wrongType", { name: file.name }));
      return;
    }
    if (problem === "tooLarge") {
      toast.error(k("tooLarge", { name: file.name }));
      return;
    }
    dropPreview();
    preview.current = URL.createObjectURL(file);
    const before = url;
    setUrl(preview.current);
    setBusy("upload");
    try {
      await uploadPicture(slug, file, k("uploadFallback"));
      toast.success(k("uploaded"));
    } catch (caught) {
      toast.error(k("uploadFailed", { error: (caught as Error).message }));
      setUrl(before);
    }
    setBusy(null);
    setVersion((value) => value + 1);
  }

  async function remove() {
    setBusy("remove");
    try {
      await removePicture(slug, k("removeFallback"));
      toast.success(k("removed"));
      setUrl(null);
    } catch (caught) {
      toast.error(k("removeFailed", { error: (caught as Error).message }));
    }
    setBusy(null);
    setVersion((value) => value + 1);
  }

  return (
    <section className="card ws-section" aria-labelledby="ws-picture-title">
      <h2 id="ws-picture-title" className="ws-section-title">{k("title")}</h2>
      <p className="muted ws-section-description">{k("description")}</p>
      <div className="ws-picture">
        <div className="ws-picture-frame" aria-busy={busy === "upload" || !loaded}>
          {url ? <img src={url} alt={k("alt")} /> : <span aria-hidden="true">{initials(name)}</span>}
        </div>
        <div className="ws-picture-controls">
          <div className="ws-picture-actions">
            <label className={`button secondary${busy || !loaded ? " disabled" : ""}`}>
              {busy === "upload" ? k("uploading") : url ? k("replace") : k("upload")}
              <input
                type="file"
                name="file"
                accept={PICTURE_TYPES.join(",")}
                className="visually-hidden"
                // Until the stored picture has been read: arriving after a chosen file, it would replace its preview.
                disabled={busy !== null || !loaded}
                onChange={choose}
              />
            </label>
            {url && (
              <button type="button" className="button secondary" disabled={busy !== null} onClick={remove}>
                {busy === "remove" ? k("removing") : k("remove")}
              </button>
            )}
          </div>
          <span className="field-hint">{k("hint")}</span>
          {loaded && !url && <span className="field-hint">{k("none")}</span>}
        </div>
      </div>
    </section>
  );
}
