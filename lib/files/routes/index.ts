/**
 * /api/files (docs/api.md "File API"; the routes it leaves unshown follow docs/conductor-compat.md §7.2:
 * upload-URL refresh, metadata, download URL, multipart initiate / part URL / complete / abort).
 * Path variables carry the bare file id; the workflow id in the path is the caller, checked
 * against the file's owner.
 *
 * One const per route, one file per part in this folder: the records, multipart uploads and, on
 * the `service` backend, the content routes.
 */
import type { RouteDef } from '../../http/router.ts';
import type { ContentTransfer } from '../content.ts';
import type { MultipartUploads } from '../multipart.ts';
import type { FileService } from '../service.ts';
import { downloadContent, uploadContent } from './content.ts';
import { abortMultipart, completeMultipart, initiateMultipart, partUrl } from './multipart.ts';
import { createFile, downloadUrl, fileMetadata, uploadComplete, uploadUrl } from './records.ts';

export interface FileRouteDeps {
  files: FileService;
  multipart: MultipartUploads;
  /** The content routes, on the `service` backend only. */
  content?: ContentTransfer;
}

export function fileRoutes({ files, multipart, content }: FileRouteDeps): RouteDef[] {
  return [
    createFile(files),
    fileMetadata(files),
    uploadUrl(files),
    uploadComplete(files),
    downloadUrl(files),
    initiateMultipart(multipart),
    partUrl(multipart),
    completeMultipart(multipart),
    abortMultipart(multipart),
    ...(content ? [uploadContent(content), downloadContent(content)] : []),
  ];
}
