export default function FineTuning(_props: Record<string, unknown>) {
  return <h1>FineTuning</h1>;
}
