/**
 * The body members of a web Request or Response the HTTP layer builds lazily (TextResponse in
 * responses.ts, NodeRequest in node-request.ts): each is read from the standard object, which the
 * subclass builds on first need, so body semantics (one read, bodyUsed) are the standard ones.
 */
export abstract class LazyBody implements Body {
  /** The standard object, built once on first need. */
  abstract web(): Body;

  get body(): Body['body'] {
    return this.web().body;
  }
  get bodyUsed(): boolean {
    return this.web().bodyUsed;
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.web().arrayBuffer();
  }
  blob(): Promise<Blob> {
    return this.web().blob();
  }
  bytes(): ReturnType<Body['bytes']> {
    return this.web().bytes();
  }
  formData(): Promise<FormData> {
    return this.web().formData();
  }
  json(): Promise<unknown> {
    return this.web().json();
  }
  text(): Promise<string> {
    return this.web().text();
  }
}
