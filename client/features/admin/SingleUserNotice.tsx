import { useTranslation } from "react-i18next";
import { paths } from "../../../shared/routes.ts";

/** What Users and Invites say on a single-user instance: accounts come with multi-user mode. */
export function SingleUserNotice({ text }: { text: string }) {
  const { t } = useTranslation();
  return (
    <section className="card admin-notice">
      <p>{text}</p>
      <a className="button primary" href={paths.settings("security")}>{t("users.singleUser.action")}</a>
    </section>
  );
}
