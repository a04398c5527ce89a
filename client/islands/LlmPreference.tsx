export default function LlmPreference(_props: Record<string, unknown>) {
  return <h1>LlmPreference</h1>;
}
