// Tests read many JSON bodies of known shape; let `res.json()` be `any` there instead of `unknown`.
declare global {
  interface Response {
    json(): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  }
}
export {};
