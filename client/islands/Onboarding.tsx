export default function Onboarding(_props: Record<string, unknown>) {
  return <h1>Onboarding</h1>;
}
