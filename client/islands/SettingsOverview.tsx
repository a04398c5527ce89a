export default function SettingsOverview(_props: Record<string, unknown>) {
  return <h1>SettingsOverview</h1>;
}
