// Output names and formats (output_options.hpp).
#include "cli/output_options.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli/command.hpp"
#include "core/files.hpp"
#include "standard_output.hpp"

namespace sv::cli {

std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

std::ostream& messages_for(const std::string& out) {
  if (stream_named(out) == 1) return std::cerr;
  mark_status_only();
  return std::cout;
}

std::string output_format(const std::string& out, const std::string& format, const std::vector<std::string>& formats) {
  std::string listed;
  for (const std::string& f : formats) listed += (listed.empty() ? "" : ", ") + f;
  const auto known = [&](const std::string& f) { return std::find(formats.begin(), formats.end(), f) != formats.end(); };
  std::string ext = std::filesystem::path(out).extension().string();
  if (!ext.empty()) ext.erase(0, 1);
  if (!format.empty()) {
    if (!known(format)) throw UsageError("--format: unknown format '" + format + "' (" + listed + ")");
    if (known(ext) && ext != format) throw UsageError("--format " + format + " does not match --out " + out);
    return format;
  }
  if (!known(ext)) throw UsageError("--out " + out + ": the name does not say the format; add --format (" + listed + ")");
  return ext;
}

void refuse_binary_on_terminal(const std::string& option, const std::string& out, const std::string& format) {
  const std::optional<int> fd = stream_named(out);
  if ((format == "png" || format == "gif") && fd && ::isatty(*fd))
    throw UsageError(option + " " + out + " is a terminal: a " + format + " image goes to a file or a pipe (" + option + " FILE." +
                     format + ", or " + option + " - | ...)");
}

}  // namespace sv::cli
