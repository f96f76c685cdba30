// Standard output as every command treats it. SIGPIPE is ignored for the whole run, so that a pipe
// whose reader has gone is the write error EPIPE, which each command reports in one line with exit
// 2, as it reports /dev/full or a closed standard output: a script sees a cut-short output fail.
#pragma once

namespace sv {

void ignore_sigpipe();

// Standard output carries only the status lines ("wrote FILE: ...") of a file the command wrote
// whole: failing to print them does not fail the command, which exits 0 and leaves the file.
void mark_status_only();

// The command's exit code; 2, with one line on stderr, when what it printed did not reach standard
// output (stats > /dev/full, show | a reader that quit) and standard output was not only status.
int checked_stdout(int code);

}  // namespace sv
