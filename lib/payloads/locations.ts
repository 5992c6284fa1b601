/**
 * External storage locations (GET /api/workflow/externalstoragelocation and its task variant,
 * docs/conductor-compat.md §1.1, §1.6; ExternalStorageLocation = {uri, path}): where a client writes a
 * large payload before sending its path, or reads one the service externalized. On AWS the URI is
 * a presigned S3 URL (PUT to write, GET to read); locally it is the local server's own payload
 * route, which serves the same keys. Paths are only ever keys this service issued (keys.ts).
 */
import { ForbiddenError, NotFoundError, ValidationError } from '../model/errors.ts';
import { isPayloadKey, isUploadKey, type PayloadType, uploadKey } from './keys.ts';
import type { PayloadOperation, PayloadStore } from './ports.ts';

export interface ExternalStorageLocation {
  uri: string;
  path: string;
}

/** The local payload route; `{path}` spans its two segments (namespace/file). */
export const LOCAL_PAYLOAD_ROUTE = '/api/workflow/payloads';

export class PayloadLocations {
  constructor(
    private readonly payloads: PayloadStore,
    private readonly expiresInSeconds: number,
  ) {}

  /**
   * A WRITE location is always a fresh upload key (a client may name one it was given, to retry
   * its upload); a READ location needs the path of a stored payload. `origin` is the server's own
   * origin, for the local URI.
   */
  async location(
    request: { operation: PayloadOperation; payloadType: PayloadType; path?: string },
    origin: string,
  ): Promise<ExternalStorageLocation> {
    const given = request.path?.trim() || undefined;
    let path: string;
    if (request.operation === 'WRITE') {
      if (given !== undefined && !isUploadKey(given)) {
        throw new ValidationError(
          `path '${given}' cannot be written: leave it empty for a new upload location, or give one issued for an upload`,
        );
      }
      path = given ?? uploadKey(request.payloadType);
    } else {
      if (given === undefined) throw new ValidationError('path is required to READ a payload');
      if (!isPayloadKey(given))
        throw new ValidationError(`path '${given}' is not a payload path issued by this server`);
      path = given;
    }
    const uri = this.payloads.presign
      ? await this.payloads.presign(path, request.operation, this.expiresInSeconds)
      : `${origin}${LOCAL_PAYLOAD_ROUTE}/${path}`;
    return { uri, path };
  }

  /** The local route's GET: the stored JSON document. */
  async read(path: string): Promise<string> {
    if (!isPayloadKey(path)) throw new NotFoundError(`No payload at '${path}'`);
    const json = await this.payloads.get(path);
    if (json === undefined) throw new NotFoundError(`No payload at '${path}'`);
    return json;
  }

  /**
   * The local route's PUT: a client's upload. Only upload keys take writes; a payload the service
   * externalized is named by its content and never rewritten.
   */
  async write(path: string, body: string): Promise<void> {
    if (!isPayloadKey(path)) throw new NotFoundError(`No payload location at '${path}'`);
    if (!isUploadKey(path))
      throw new ForbiddenError(`Payload '${path}' is stored by the service and cannot be written`);
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      throw new ValidationError('The payload must be a JSON object');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ValidationError('The payload must be a JSON object');
    }
    await this.payloads.put(path, body);
  }
}
