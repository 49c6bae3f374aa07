/**
 * File and folder names: 1..255 characters, no `/` (a name is never a path) and no NUL (PostgreSQL
 * text cannot hold it). Returns the message of the rule broken, or null.
 */
export function filenameProblem(name: string): string | null {
  // characters as PostgreSQL and JSON Schema count them (code points), not UTF-16 units
  const length = [...name].length;
  if (length < 1 || length > 255) return 'Must be 1 to 255 characters';
  if (name.includes('/') || name.includes('\0')) return 'Must not contain "/" or NUL';
  return null;
}
