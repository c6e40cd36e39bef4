/**
 * One text per trie of hidden paths, which the relaxer keys its relaxed
 * twins by. The last check of a document, which this module once held,
 * lives in `check/` and does not use it.
 */
import type { PathTrie } from '../schema/tree.js'

/** One text per trie of hidden paths. */
export function hiddenText (hidden: PathTrie): string {
  let text = texts.get(hidden)
  if (text === undefined) {
    text = JSON.stringify([...hidden.children].map(([name, below]) => [name, below.whole ? 1 : hiddenText(below)]))
    texts.set(hidden, text)
  }
  return text
}

// A trie is not changed once made (a rule's answer is remembered): its text is worked out once.
const texts = new WeakMap<PathTrie, string>()
