// What the commands that write files share: a format told from --out or --format, binary images kept
// off a terminal, and where a command's own messages go.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace sv::cli {

// "a,b,c" -> {"a", "b", "c"} (an empty string: none).
std::vector<std::string> comma_list(const std::string& text);

// Where a command's own messages go: stderr when its output is standard output, which stays clean.
std::ostream& messages_for(const std::string& out);

// An output's format: --format when given, else the extension of --out. "-" and names without one
// of `formats` as extension (/dev/null, a FIFO) need --format; an extension that disagrees is refused.
std::string output_format(const std::string& out, const std::string& format, const std::vector<std::string>& formats);

// PNG and GIF bytes go to a file or a pipe; on a terminal they would only be garbage.
void refuse_binary_on_terminal(const std::string& option, const std::string& out, const std::string& format);

}  // namespace sv::cli
