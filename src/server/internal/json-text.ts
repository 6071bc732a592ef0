import type { HeaderList } from "../../limits/headers.js";

/**
 * A JSON answer already serialised, with the headers that go with it (an ETag, a Link): the
 * guard sends it as it is. A handler returns one when it keeps its answers (see PageCache), so a
 * repeated request neither serialises the body again nor goes through h3's response headers.
 */
export class JsonText {
  constructor(
    readonly text: string,
    readonly headers: HeaderList,
  ) {}
}
