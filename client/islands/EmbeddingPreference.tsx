export default function EmbeddingPreference(_props: Record<string, unknown>) {
  return <h1>EmbeddingPreference</h1>;
}
