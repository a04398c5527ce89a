export default function AcceptInvite(_props: Record<string, unknown>) {
  return <h1>AcceptInvite</h1>;
}
