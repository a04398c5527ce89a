import { createContext } from "react";

/** True inside a settings page the signed-in user may see but not change: forms show no Save and no inputs. */
export const ReadOnlyContext = createContext(false);
