export default function Home(_props: Record<string, unknown>) {
  return <h1>Home</h1>;
}
