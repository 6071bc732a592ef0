/**
 * A handler's 304 Not Modified (RFC 9110 15.4.5): the guard answers it directly, with this ETag
 * and its own headers, without the handler touching h3's response headers, so a poller's 304
 * costs about what a refused request costs.
 */
export class NotModified {
  constructor(readonly etag: string) {}
}
