// better-sqlite3 12 on Node 24 aborts the process (SIGABRT, `Assertion failed: (env) != nullptr` in
// RemoveEnvironmentCleanupHook) when the garbage collector finalizes one of its Database or Statement
// objects outside a JS context: Node 24 made node::ObjectWrap register environment cleanup hooks
// (WiseLibs/better-sqlite3#1515; fixed in better-sqlite3 13, which needs Node >= 22 while revimport
// supports 20.18). So revimport never lets one become garbage: every Database and Statement it creates
// is kept until the process exits (a handful per opened ledger), and pragmas go through exec().

const retained: object[] = [];

export function retain<T extends object>(value: T): T {
  retained.push(value);
  return value;
}
