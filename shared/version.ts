/** Lectern's release, shown in the settings sidebar and answered by `GET /api/utils/metrics`. */
export const LECTERN_VERSION = "0.1.0";
