import { Spinner } from "./Spinner.tsx";

/** A centred spinner with its text, for a screen or a section that is still loading. */
export function LoadingBlock({ label }: { label: string }) {
  return (
    <div className="loading-block">
      <Spinner label={label} />
      <span className="muted">{label}</span>
    </div>
  );
}
