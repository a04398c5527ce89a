export default function WorkspaceSettings(_props: Record<string, unknown>) {
  return <h1>WorkspaceSettings</h1>;
}
