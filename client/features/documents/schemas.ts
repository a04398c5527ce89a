import * as z from "zod";
import { SuccessOrMessage } from "../../../shared/api/library.ts";

// The document calls' own answer shapes, loaded lazily (client/lib/schemas.ts).

export const TypesAnswer = z.object({ types: z.record(z.string(), z.array(z.string())) });
export const CreateFolderAnswer = SuccessOrMessage.extend({ folder: z.string().optional() });
export const UploadAnswer = z.looseObject({
  success: z.boolean().optional(),
  error: z.string().nullable().optional(),
  message: z.string().nullable().optional(),
  documents: z.array(z.looseObject({ location: z.string() })).optional(),
});
export type UploadAnswer = z.infer<typeof UploadAnswer>;
