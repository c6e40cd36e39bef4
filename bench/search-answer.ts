/**
 * The operations a `find_operations` answer names, in order: each entry's
 * operation, then its twins of other scopes (`; also for organization:
 * orgs_x, user: users_y`), each once. A task counts as found where its
 * operation is among the first five names.
 */
export function namesOf (text: string): string[] {
  const names: string[] = []
  for (const line of text.split('\n')) {
    // An operation's line is its name, then its path: `issues_list-for-repo: /repos/{owner}/{repo}/issues (…) [issues]`.
    if (!/^[^\s:]+: \//.test(line)) continue
    names.push(line.slice(0, line.indexOf(':')))
    const also = line.indexOf('; also for ')
    if (also === -1) continue
    for (const twin of line.slice(also + '; also for '.length).split(', ')) names.push(twin.slice(twin.indexOf(': ') + 2))
  }
  return [...new Set(names)]
}
