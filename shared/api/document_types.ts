// Without zod on purpose: the parse worker reads this list, and a worker starts for every uploaded file.
import { MEDIA_DOCUMENT_TYPES } from "../providers/audio_catalog.ts";

/**
 * Extensions the upload accepts in this version, by MIME type (the shape of `accepted-document-types`,
 * docs/api-compat.md#accepted-document-types). Images of the reference's list are left out: Lectern does not run
 * OCR, so it would only refuse them after the upload. Audio and video become their transcript.
 */
export const ACCEPTED_DOCUMENT_TYPES: Record<string, string[]> = {
  "text/plain": [".txt", ".md", ".org", ".adoc", ".rst"],
  "text/html": [".html", ".htm"],
  "text/csv": [".csv"],
  "application/json": [".json"],
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": [".docx"],
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": [".pptx"],
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": [".xlsx"],
  "application/vnd.oasis.opendocument.text": [".odt"],
  "application/vnd.oasis.opendocument.presentation": [".odp"],
  "application/pdf": [".pdf"],
  "application/mbox": [".mbox"],
  "application/epub+zip": [".epub"],
  ...MEDIA_DOCUMENT_TYPES,
};
