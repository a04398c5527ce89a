export default function VectorDatabase(_props: Record<string, unknown>) {
  return <h1>VectorDatabase</h1>;
}
