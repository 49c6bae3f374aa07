/** Where a database driver connects: the checked address, and the name for TLS. */
export interface DatabaseTarget {
  /** The host as configured: TLS checks the certificate against it. */
  host: string;
  /** The address the public-address guard checked; the connection goes there, never to a fresh lookup. */
  address: string;
  port: number;
  database: string;
  user: string;
  password: string;
  ssl: boolean;
  /** Bytes of rows one read may answer (`SVC_MAX_READ_BYTES`). */
  maxReadBytes: number;
}
