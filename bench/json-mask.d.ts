declare module 'json-mask' {
  /** Returns the parts of `object` that `mask` (`'a,b/c'`) selects. */
  export default function mask (object: unknown, mask: string): unknown
}
