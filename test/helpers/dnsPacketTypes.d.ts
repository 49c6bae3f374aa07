// dns-packet's own table of record type names and codes (node_modules/dns-packet/types.js), which its published
// typings leave out; the test DNS server reports questions of other types by their code.
declare module 'dns-packet/types' {
  export function toType(name: string): number;
}
