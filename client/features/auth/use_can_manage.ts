import { useEffect, useState } from "react";
import { guardAllows, pageAuth } from "../../lib/auth.ts";

/**
 * Whether the visitor may create and manage workspaces (admin or manager, or anyone without accounts). It is
 * true until the page's auth check says otherwise, as the server renders it; a default user then loses the
 * controls the server would refuse anyway.
 */
export function useCanManage(): boolean {
  const [canManage, setCanManage] = useState(true);
  useEffect(() => {
    pageAuth().then((decision) => {
      if (decision.state === "authenticated") {
        setCanManage(guardAllows("adminOrManager", decision.multiUser, decision.user));
      }
    }).catch(() => {});
  }, []);
  return canManage;
}
