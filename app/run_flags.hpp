// The run request's command-line view: each request key is the flag --KEY on a subcommand, and the
// flags given become the request through set_field (run/request.hpp), so the checks exist once.
#pragma once

#include <CLI/CLI.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "run/request.hpp"

namespace sv::cli {

struct RunFlags {
  std::map<std::string, std::string> text;  // key -> the flag's text as given
  std::vector<std::string> options;         // --option KEY=VALUE, repeatable
  bool exclusive = false;
};

// Adds --KEY for each (key, help): a request key, or "scan" (the window's form of flags and app);
// "exclusive" is a flag, "option" repeatable.
void add_run_flags(CLI::App& command, RunFlags& flags, const std::vector<std::pair<std::string, std::string>>& keys);

// `defaults` with the flags given on `command` set: --input @FILE reads the file's values (commas or
// newlines; lines starting with # are comments). Throws RequestError naming the field.
RunRequest request_of(const CLI::App& command, const RunFlags& flags, RunRequest defaults = {});

// A request error as the command line says it: its fields as flags (--n), and where a name is
// unknown, where to find the names.
std::string flag_text(const RequestError& e);

// --sizes: "1024,2^20,65536" -> sizes from 1 to 2^max_log2. Throws std::invalid_argument naming the flag.
std::vector<std::int64_t> parse_sizes(const std::string& text, int max_log2);

}  // namespace sv::cli
