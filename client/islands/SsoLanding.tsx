export default function SsoLanding(_props: Record<string, unknown>) {
  return <h1>SsoLanding</h1>;
}
