import { type ConnectorFormProps, RepoForm } from "./RepoForm.tsx";

export function GitlabForm(props: ConnectorFormProps) {
  return <RepoForm host="gitlab" {...props} />;
}
