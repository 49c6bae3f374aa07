// Types for the `content-type` package (jshttp/content-type), which ships none: the part this service uses.
declare module 'content-type' {
  export interface ParsedMediaType {
    type: string;
    parameters: Record<string, string>;
  }
  /** Parses an RFC 7231 media type in linear time; throws a TypeError when it is malformed. */
  export function parse(header: string): ParsedMediaType;
  export function format(value: ParsedMediaType): string;
}
