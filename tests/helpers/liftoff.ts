/**
 * The V8 flag of the short-lived processes that open the embedded database. PGlite is 9 MB of
 * WebAssembly: V8 compiles it at once with its baseline compiler (Liftoff), then recompiles the
 * busy functions with its optimising one in background threads. A process that lives seconds (a
 * test file's, a script a test runs, a server a test kills) never earns that back: Liftoff alone
 * took a database's opening from about 2.7 s of CPU to 1.6 s and ran 20,000 inserts faster too.
 * What the process does is the same either way.
 */
export const LIFTOFF_ONLY = ['--liftoff-only'];
